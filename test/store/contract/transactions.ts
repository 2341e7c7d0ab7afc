/** Contract: transaction(), ready() and dialect. */
import { describe, expect, test } from "bun:test";
import type { Store } from "../../../src/store/store";
import { apiKey, generation, reservation, settled, sleep, TODAY, usageRow, user } from "./fixtures";

export function transactionContract(store: () => Store, dialect: Store["dialect"]): void {
  describe("transaction", () => {
    test("commits what fn wrote and returns fn's value", async () => {
      const s = store();
      const out = await s.transaction(async (tx) => {
        await tx.meta.set("a", "1");
        await tx.users.create(user("u1", 1));
        await tx.keys.create(apiKey("h1", "w1", 1));
        await tx.reservations.reserve(reservation("r1", "h1", 1000, 100));
        await tx.generations.commit([settled(generation("g1", "h1", 40), { reservationId: "r1" })]);
        // a transaction reads its own writes
        return [await tx.meta.get("a"), await tx.users.count(), await tx.reservations.held("h1")];
      });
      expect(out).toEqual(["1", 1, 0]);
      expect(await s.meta.get("a")).toBe("1");
      expect(await s.users.get("u1")).toEqual(user("u1", 1));
      expect(await s.keys.get("h1")).toEqual(apiKey("h1", "w1", 1));
      expect(await s.usage.get("h1")).toEqual(usageRow("h1", TODAY, { total: 40, day: 40, week: 40, month: 40 }));
    });

    test("rolls back everything fn wrote when it throws, and rethrows its error", async () => {
      const s = store();
      await s.meta.set("a", "before");
      expect(await s.reservations.reserve(reservation("r1", "k", 1000, 300))).toBeNull();
      const boom = new Error("boom");
      const run = s.transaction(async (tx) => {
        await tx.meta.set("a", "inside");
        await tx.users.create(user("u1", 1));
        await tx.generations.commit([settled(generation("g1", "k", 50), { reservationId: "r1" })]);
        await tx.presets.appendVersion({
          workspaceId: "w",
          slug: "p",
          config: {},
          systemPrompt: null,
          format: "openai-chat",
          creatorUserId: null,
          creatorId: null,
          now: 1,
        });
        expect(await tx.reservations.reserve(reservation("r2", "k", 1000, 900))).toBeNull();
        throw boom;
      });
      await expect(run).rejects.toBe(boom);
      expect(await s.meta.get("a")).toBe("before");
      expect(await s.users.count()).toBe(0);
      expect(await s.generations.get("g1")).toBeUndefined();
      expect(await s.presets.find("w", "p")).toBeUndefined();
      expect(await s.reservations.held("k")).toBe(300);
      expect(await s.usage.get("k")).toEqual(usageRow("k", TODAY, {}));
    });

    test("a failed statement inside fn rolls the transaction back too", async () => {
      const s = store();
      await s.users.create(user("u1", 1));
      const run = s.transaction(async (tx) => {
        await tx.meta.set("a", "inside");
        await tx.users.create(user("u1", 2)); // duplicate id
      });
      await expect(run).rejects.toThrow();
      expect(await s.meta.get("a")).toBeUndefined();
      // the store still works afterwards
      await s.meta.set("a", "after");
      expect(await s.meta.get("a")).toBe("after");
    });

    test("concurrent read-modify-write transactions are serialised", async () => {
      const s = store();
      await s.meta.set("n", "0");
      const increment = () =>
        s.transaction(async (tx) => {
          const n = Number(await tx.meta.get("n"));
          await sleep(5); // let the other transactions run if they could
          await tx.meta.set("n", String(n + 1));
          return n;
        });
      const seen = await Promise.all(Array.from({ length: 10 }, increment));
      expect(await s.meta.get("n")).toBe("10");
      expect(seen.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    });
  });

  describe("store", () => {
    test(`ready() once migrated; dialect is ${dialect}`, async () => {
      const s = store();
      expect(await s.ready()).toBe(true);
      expect(s.dialect).toBe(dialect);
    });
  });
}
