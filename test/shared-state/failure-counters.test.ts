// The failure counters' contract (sign-in throttling), in memory and through Redis (two
// instances on one prefix, calls alternating between them): counts within a window, the hold
// that the lock-th failure starts, expiry, clear, and concurrent adds all counted. Real time,
// short windows: Redis expires keys by its own clock.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { silentLogger } from "../../src/logger";
import { createSharedState, type FailureCounters } from "../../src/shared-state";
import { closedPort, describeRedis, recordingLogger, redisInstances } from "../support/redis";

type Open = () => Promise<{ counters: FailureCounters[]; close(): Promise<void> }>;

const rule = { windowMs: 400, holdAt: 3, holdMs: 800 };

function contract(label: string, open: Open): void {
  describe(`failure counters: ${label}`, () => {
    let counters: FailureCounters[] = [];
    let close = async () => {};
    beforeAll(async () => {
      ({ counters, close } = await open());
    });
    afterAll(() => close());
    const at = (i: number) => counters[i % counters.length]!;
    const subject = () => `signin:test:${crypto.randomUUID()}`;

    test("counts within a window, then forgets", async () => {
      const s = subject();
      expect(await at(0).get(s, Date.now())).toEqual({ count: 0, resetsAt: 0 });
      const first = await at(0).add({ subject: s, now: Date.now(), ...rule });
      expect(first.count).toBe(1);
      expect(first.resetsAt - Date.now()).toBeGreaterThan(300);
      expect((await at(1).add({ subject: s, now: Date.now(), ...rule })).count).toBe(2);
      expect((await at(0).get(s, Date.now())).count).toBe(2);
      await Bun.sleep(rule.windowMs + 50);
      expect((await at(1).get(s, Date.now())).count).toBe(0);
      expect((await at(0).add({ subject: s, now: Date.now(), ...rule })).count).toBe(1);
    });

    test("the hold-at-th failure holds the count for holdMs from then; clear forgets at once", async () => {
      const s = subject();
      for (let i = 0; i < 3; i++) await at(i).add({ subject: s, now: Date.now(), ...rule });
      const held = await at(0).get(s, Date.now());
      expect(held.count).toBe(3);
      expect(held.resetsAt - Date.now()).toBeGreaterThan(rule.windowMs);
      await Bun.sleep(rule.windowMs + 50);
      expect((await at(1).get(s, Date.now())).count).toBe(3);
      await at(1).clear(s);
      expect((await at(0).get(s, Date.now())).count).toBe(0);
    });

    test("50 concurrent failures on both instances are all counted", async () => {
      const s = subject();
      const counts = await Promise.all(
        Array.from({ length: 50 }, (_, i) => at(i).add({ subject: s, now: Date.now(), windowMs: 10_000, holdAt: 1_000, holdMs: 10_000 })),
      );
      expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    });
  });
}

contract("in memory", async () => {
  const shared = await createSharedState({ prefix: "gw-test:failures:", instanceId: "solo", logger: silentLogger });
  return { counters: [shared.failures], close: () => shared.close() };
});

describeRedis("failure counters through Redis", (url) => {
  const instance = redisInstances(url, "failures");

  contract("two instances sharing one Redis", async () => {
    const [a, b] = [await instance(), await instance()];
    return { counters: [a.failures, b.failures], close: async () => {} };
  });

  test("an unreachable Redis: the instance counts alone, and says so once", async () => {
    const logger = recordingLogger();
    const alone = await instance({ url: `redis://127.0.0.1:${closedPort()}`, logger });
    const s = `signin:test:${crypto.randomUUID()}`;
    for (let i = 1; i <= 3; i++) expect((await alone.failures.add({ subject: s, now: Date.now(), ...rule })).count).toBe(i);
    expect((await alone.failures.get(s, Date.now())).count).toBe(3);
    expect(logger.lines.filter((l) => l.msg.includes("sign-in failures count on this instance alone"))).toHaveLength(1);
  });
});
