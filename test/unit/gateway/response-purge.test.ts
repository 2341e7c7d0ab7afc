import { describe, expect, test } from "bun:test";
import { startResponsePurge } from "../../../src/gateway/response-purge";
import { silentLogger } from "../../../src/logger";
import type { ResponseStateStore } from "../../../src/store/store";

function countingStore(fail = false): { store: ResponseStateStore; purgedAt: number[] } {
  const purgedAt: number[] = [];
  const store: ResponseStateStore = {
    save: async () => {},
    items: async () => new Map(),
    conversation: async () => undefined,
    purgeExpired: async (now) => {
      purgedAt.push(now);
      if (fail) throw new Error("database away");
      return 0;
    },
  };
  return { store, purgedAt };
}

describe("startResponsePurge", () => {
  test("purges at start and then periodically at the clock's time, until stopped", async () => {
    const { store, purgedAt } = countingStore();
    let now = 1000;
    const purge = startResponsePurge(store, silentLogger, () => now++, 10);
    await Bun.sleep(55);
    await purge.stop();
    const runs = purgedAt.length;
    expect(runs).toBeGreaterThanOrEqual(3);
    expect(purgedAt[0]).toBe(1000);
    expect(purgedAt).toEqual(Array.from({ length: runs }, (_, i) => 1000 + i));
    await Bun.sleep(30);
    expect(purgedAt.length).toBe(runs);
  });

  test("a failing purge is retried on the next tick", async () => {
    const { store, purgedAt } = countingStore(true);
    const purge = startResponsePurge(store, silentLogger, () => 0, 10);
    await Bun.sleep(35);
    await purge.stop();
    expect(purgedAt.length).toBeGreaterThanOrEqual(2);
  });
});
