/** Contract: key usage counters, generation records (commit) and reservations. */
import { describe, expect, test } from "bun:test";
import type { Store } from "../../../src/store/store";
import { generation, LAST_MONTH, reservation, settled, TODAY, TOMORROW, usageRow } from "./fixtures";

export function moneyContract(store: () => Store): void {
  describe("key usage", () => {
    test("add starts a row, accumulates in the same windows, keeps paid and BYOK apart", async () => {
      const s = store();
      expect(await s.usage.get("k")).toBeUndefined();
      await s.usage.add("k", { nanos: 100, byok: false, windows: TODAY });
      expect(await s.usage.get("k")).toEqual(usageRow("k", TODAY, { total: 100, day: 100, week: 100, month: 100 }));
      await s.usage.add("k", { nanos: 7_000_000_000_000, byok: false, windows: TODAY });
      await s.usage.add("k", { nanos: 30, byok: true, windows: TODAY });
      const paid = 7_000_000_000_100;
      expect(await s.usage.get("k")).toEqual(
        usageRow("k", TODAY, { total: paid, day: paid, week: paid, month: paid, byokTotal: 30, byokDay: 30, byokWeek: 30, byokMonth: 30 }),
      );
      expect(await s.usage.get("other")).toBeUndefined();
    });

    test("a new window key restarts that window's counters and only those", async () => {
      const s = store();
      await s.usage.add("k", { nanos: 100, byok: false, windows: LAST_MONTH });
      await s.usage.add("k", { nanos: 10, byok: true, windows: LAST_MONTH });
      await s.usage.add("k", { nanos: 5, byok: false, windows: TODAY });
      expect(await s.usage.get("k")).toEqual(usageRow("k", TODAY, { total: 105, day: 5, week: 5, month: 5, byokTotal: 10 }));
      await s.usage.add("k", { nanos: 7, byok: true, windows: TOMORROW });
      expect(await s.usage.get("k")).toEqual(
        usageRow("k", TOMORROW, { total: 105, day: 0, week: 5, month: 5, byokTotal: 17, byokDay: 7, byokWeek: 7, byokMonth: 7 }),
      );
    });
  });

  describe("generations", () => {
    const full = generation("g-full", "k", 123_456_789_012, {
      workspaceId: "w1",
      userId: "u1",
      apiType: "responses",
      requestedModel: "acme/alpha",
      providerName: "Acme",
      endpointId: "acme/alpha-2025",
      upstreamId: "up-1",
      streamed: true,
      cancelled: true,
      finishReason: "length",
      nativeFinishReason: "max_tokens",
      tokensPrompt: 1000,
      tokensCompletion: 2000,
      tokensCached: 300,
      tokensCacheWrite: 40,
      tokensReasoning: 5,
      usageEstimated: true,
      promptCostNanos: 23_456_789_012,
      completionCostNanos: 100_000_000_000,
      isByok: true,
      latencyMs: 1234,
      generationTimeMs: 5678,
      timeToFirstTokenMs: 90,
      attempts: [
        { model: "acme/alpha", provider: "a", endpoint: "a/1", status: 503, latency: 12 },
        { model: "acme/alpha", provider: "b", endpoint: "b/1", status: 200, latency: 34 },
      ],
      sessionId: "s1",
      externalUser: "ext",
      presetId: "p1",
      trace: { z: 1, a: { "é\u2028": [true, null, 1.5] } },
      httpReferer: "https://app.example",
      userAgent: "ua/1",
      origin: "",
      errorMessage: "cut",
      numMediaCompletion: 3,
    });

    test("commit stores records that get reads back exactly (JSON fields byte for byte)", async () => {
      const s = store();
      const bare = generation("g-bare", "k", 0);
      await s.generations.commit([settled(full, { nanos: null }), settled(bare, { nanos: null })]);
      const back = await s.generations.get("g-full");
      expect(back).toEqual(full);
      expect(JSON.stringify(back?.trace)).toBe(JSON.stringify(full.trace));
      expect(JSON.stringify(back?.attempts)).toBe(JSON.stringify(full.attempts));
      expect(await s.generations.get("g-bare")).toEqual(bare);
      expect(await s.generations.get("nope")).toBeUndefined();
      // spend null: nothing charged
      expect(await s.usage.get("k")).toBeUndefined();
      await s.generations.commit([]);
    });

    test("since: from a time on, oldest first, limited", async () => {
      const s = store();
      await s.generations.commit([3000, 1000, 2000, 4000].map((t) => settled(generation(`g${t}`, "k", 1, { createdAt: t }), { nanos: null })));
      expect((await s.generations.since(2000, 10)).map((g) => g.id)).toEqual(["g2000", "g3000", "g4000"]);
      expect((await s.generations.since(0, 2)).map((g) => g.id)).toEqual(["g1000", "g2000"]);
      expect(await s.generations.since(5000, 10)).toEqual([]);
    });

    test("commit adds the spend and releases the reservation together with the record", async () => {
      const s = store();
      expect(await s.reservations.reserve(reservation("r1", "k", 1000, 600))).toBeNull();
      await s.generations.commit([settled(generation("g1", "k", 100), { reservationId: "r1" })]);
      expect(await s.generations.get("g1")).toEqual(generation("g1", "k", 100));
      expect(await s.reservations.held("k")).toBe(0);
      expect(await s.usage.get("k")).toEqual(usageRow("k", TODAY, { total: 100, day: 100, week: 100, month: 100 }));
      expect(await s.reservations.reserve(reservation("r2", "k", 1000, 901))).toBe(900);
      expect(await s.reservations.reserve(reservation("r3", "k", 1000, 900))).toBeNull();
    });

    test("several records of one key in one batch: every spend counts and every reservation is released", async () => {
      const s = store();
      for (const [id, amount] of [
        ["r1", 100],
        ["r2", 200],
        ["r3", 300],
        ["r4", 50],
      ] as const) {
        expect(await s.reservations.reserve(reservation(id, "k", 10_000, amount))).toBeNull();
      }
      expect(await s.reservations.reserve(reservation("r-other", "k2", 10_000, 70))).toBeNull();
      await s.generations.commit([
        settled(generation("g1", "k", 10), { reservationId: "r1" }),
        settled(generation("g2", "k", 20), { reservationId: "r2", byok: true }),
        settled(generation("g3", "k2", 1), { reservationId: "r-other" }),
        settled(generation("g4", "k", 30), { reservationId: "r3" }),
        settled(generation("g5", "k", 0), { reservationId: null, nanos: null }),
      ]);
      expect(await s.usage.get("k")).toEqual(
        usageRow("k", TODAY, { total: 40, day: 40, week: 40, month: 40, byokTotal: 20, byokDay: 20, byokWeek: 20, byokMonth: 20 }),
      );
      expect(await s.usage.get("k2")).toEqual(usageRow("k2", TODAY, { total: 1, day: 1, week: 1, month: 1 }));
      expect(await s.reservations.held("k")).toBe(50);
      expect(await s.reservations.held("k2")).toBe(0);
      expect((await s.generations.since(0, 10)).map((g) => g.id).sort()).toEqual(["g1", "g2", "g3", "g4", "g5"]);
    });

    test("a reservation released by a record without spend", async () => {
      const s = store();
      expect(await s.reservations.reserve(reservation("r1", "k", 1000, 400))).toBeNull();
      await s.generations.commit([settled(generation("g1", "k", 0), { reservationId: "r1", nanos: null })]);
      expect(await s.reservations.held("k")).toBe(0);
      expect(await s.reservations.reserve(reservation("r2", "k", 1000, 1000))).toBeNull();
    });

    test("a record whose id is already stored is skipped with its spend; the rest of the batch goes in", async () => {
      const s = store();
      await s.generations.commit([settled(generation("g1", "k", 100))]);
      await s.generations.commit([settled(generation("g1", "k", 999, { model: "changed/model" })), settled(generation("g2", "k", 50))]);
      expect(await s.generations.get("g1")).toEqual(generation("g1", "k", 100));
      expect(await s.generations.get("g2")).toEqual(generation("g2", "k", 50));
      expect((await s.usage.get("k"))?.total).toBe(150);
      // the same id twice in one batch counts once
      await s.generations.commit([settled(generation("g3", "k", 7)), settled(generation("g3", "k", 7))]);
      expect((await s.usage.get("k"))?.total).toBe(157);
    });

    test("a retried record is skipped, but its reservation is released all the same", async () => {
      const s = store();
      await s.generations.commit([settled(generation("g1", "k", 100))]);
      expect(await s.reservations.reserve(reservation("r1", "k", 1000, 400))).toBeNull();
      await s.generations.commit([settled(generation("g1", "k", 100), { reservationId: "r1" })]);
      expect(await s.reservations.held("k")).toBe(0);
      expect((await s.usage.get("k"))?.total).toBe(100);
    });

    test("a batch crossing midnight applies its spend in order: the new day restarts the day counter", async () => {
      const s = store();
      await s.generations.commit([
        settled(generation("g1", "k", 100), { windows: TODAY }),
        settled(generation("g2", "k", 20), { windows: TOMORROW }),
        settled(generation("g3", "k", 3), { windows: TOMORROW }),
      ]);
      expect(await s.usage.get("k")).toEqual(usageRow("k", TOMORROW, { total: 123, day: 23, week: 123, month: 123 }));
    });

    test("a batch that fails stores nothing of it: no record, no spend, no release", async () => {
      const s = store();
      expect(await s.reservations.reserve(reservation("r1", "k", 1000, 100))).toBeNull();
      const broken = generation("g-bad", "k", 5, { model: null as unknown as string });
      await expect(s.generations.commit([settled(generation("g-ok", "k", 10), { reservationId: "r1" }), settled(broken)])).rejects.toThrow();
      expect(await s.generations.get("g-ok")).toBeUndefined();
      expect(await s.usage.get("k")).toEqual(usageRow("k", TODAY, {}));
      expect(await s.reservations.held("k")).toBe(100);
    });
  });

  describe("reservations", () => {
    test("reserve holds what fits and returns null; what does not fit gets what is left and holds nothing", async () => {
      const s = store();
      expect(await s.reservations.held("k")).toBe(0);
      expect(await s.reservations.reserve(reservation("r1", "k", 1000, 600))).toBeNull();
      expect(await s.reservations.held("k")).toBe(600);
      expect(await s.reservations.reserve(reservation("r2", "k", 1000, 401))).toBe(400);
      expect(await s.reservations.held("k")).toBe(600);
      expect(await s.reservations.reserve(reservation("r3", "k", 1000, 400))).toBeNull();
      expect(await s.reservations.reserve(reservation("r4", "k", 1000, 1))).toBe(0);
      expect(await s.reservations.held("k")).toBe(1000);
      // a key never seen: the whole limit is left
      expect(await s.reservations.reserve(reservation("r5", "fresh", 100, 101))).toBe(100);
      expect(await s.reservations.held("fresh")).toBe(0);
    });

    test("spend counts against the limit; what is left is never negative", async () => {
      const s = store();
      await s.usage.add("k", { nanos: 300, byok: false, windows: TODAY });
      expect(await s.reservations.reserve(reservation("r1", "k", 1000, 800))).toBe(700);
      expect(await s.reservations.reserve(reservation("r2", "k", 1000, 700))).toBeNull();
      await s.usage.add("over", { nanos: 1500, byok: false, windows: TODAY });
      expect(await s.reservations.reserve(reservation("r3", "over", 1000, 1))).toBe(0);
    });

    test("nothing left refuses even a zero amount; something left admits it", async () => {
      const s = store();
      await s.usage.add("spent", { nanos: 1000, byok: false, windows: TODAY });
      expect(await s.reservations.reserve(reservation("r1", "spent", 1000, 0))).toBe(0);
      expect(await s.reservations.reserve(reservation("r2", "zero-limit", 0, 0))).toBe(0);
      expect(await s.reservations.reserve(reservation("r3", "k", 1000, 0))).toBeNull();
      expect(await s.reservations.held("k")).toBe(0);
    });

    test("a window limit counts only spend whose window key is the current one", async () => {
      const s = store();
      const yesterday = { ...TODAY, day: "2026-11-21" };
      await s.usage.add("stale-day", { nanos: 900, byok: false, windows: yesterday });
      await s.usage.add("stale-all", { nanos: 900, byok: false, windows: LAST_MONTH });
      await s.usage.add("current", { nanos: 900, byok: false, windows: TODAY });
      // asking for more than the limit never holds anything and tells what is left
      const left = (hash: string, counter: "total" | "day" | "week" | "month", windowKey: string) =>
        s.reservations.reserve(reservation(`probe-${hash}-${counter}`, hash, 1000, 1001, { window: { counter, windowKey, includeByok: false } }));
      const current = { total: "", day: TODAY.day, week: TODAY.week, month: TODAY.month };
      const counters = ["total", "day", "week", "month"] as const;
      const leftOf = async (hash: string) => Promise.all(counters.map((c) => left(hash, c, current[c])));
      expect(await leftOf("stale-day")).toEqual([100, 1000, 100, 100]);
      expect(await leftOf("stale-all")).toEqual([100, 1000, 1000, 1000]);
      expect(await leftOf("current")).toEqual([100, 100, 100, 100]);
      // the usage row is current, but the limit's window is another one
      expect(await left("current", "day", TOMORROW.day)).toBe(1000);
      // and a reservation in that window fits
      const day = { counter: "day" as const, windowKey: TODAY.day, includeByok: false };
      expect(await s.reservations.reserve(reservation("r1", "stale-day", 1000, 1000, { window: day }))).toBeNull();
      expect(await s.reservations.reserve(reservation("r2", "stale-day", 1000, 1, { window: day }))).toBe(0);
      expect(await s.reservations.held("stale-day")).toBe(1000);
    });

    test("includeByok adds the window's BYOK spend", async () => {
      const s = store();
      await s.usage.add("k", { nanos: 100, byok: false, windows: TODAY });
      await s.usage.add("k", { nanos: 500, byok: true, windows: TODAY });
      const left = (counter: "total" | "day", windowKey: string, includeByok: boolean) =>
        s.reservations.reserve(reservation("probe", "k", 1000, 1001, { window: { counter, windowKey, includeByok } }));
      expect(await left("day", TODAY.day, false)).toBe(900);
      expect(await left("day", TODAY.day, true)).toBe(400);
      expect(await left("total", "", true)).toBe(400);
      expect(await left("day", TOMORROW.day, true)).toBe(1000);
      const withByok = { counter: "day" as const, windowKey: TODAY.day, includeByok: true };
      expect(await s.reservations.reserve(reservation("r1", "k", 1000, 401, { window: withByok }))).toBe(400);
      expect(await s.reservations.reserve(reservation("r2", "k", 1000, 400, { window: withByok }))).toBeNull();
    });

    test("200 parallel reserves of equal amounts admit exactly floor(limit / amount)", async () => {
      const s = store();
      const results = await Promise.all(Array.from({ length: 200 }, (_, i) => s.reservations.reserve(reservation(`r${i}`, "k", 1000, 7))));
      const admitted = results.filter((r) => r === null).length;
      expect(admitted).toBe(142);
      // each refusal saw every admitted one: 1000 - 142 * 7
      expect(new Set(results.filter((r) => r !== null))).toEqual(new Set([6]));
      expect(await s.reservations.held("k")).toBe(994);
    });

    test("release frees the amount once; unknown ids are ignored", async () => {
      const s = store();
      expect(await s.reservations.reserve(reservation("r1", "k", 1000, 600))).toBeNull();
      expect(await s.reservations.reserve(reservation("r2", "k", 1000, 300))).toBeNull();
      await s.reservations.release("r1");
      expect(await s.reservations.held("k")).toBe(300);
      await s.reservations.release("r1");
      await s.reservations.release("nope");
      expect(await s.reservations.held("k")).toBe(300);
      expect(await s.reservations.reserve(reservation("r3", "k", 1000, 700))).toBeNull();
      expect(await s.reservations.held("k")).toBe(1000);
    });

    test("renew moves the leases of one instance; releaseExpired releases only leases that ended before now", async () => {
      const s = store();
      const lease = (id: string, hash: string, amount: number, instanceId: string, expiresAt: number) =>
        s.reservations.reserve(reservation(id, hash, 10_000, amount, { instanceId, expiresAt }));
      expect(await lease("a1", "k1", 100, "a", 1000)).toBeNull();
      expect(await lease("a2", "k2", 200, "a", 1000)).toBeNull();
      expect(await lease("b1", "k1", 10, "b", 1000)).toBeNull();
      expect(await lease("b2", "k1", 20, "b", 1000)).toBeNull();
      expect(await lease("b3", "k2", 40, "b", 1000)).toBeNull();
      expect(await lease("c1", "k2", 1000, "c", 2000)).toBeNull();
      expect(await s.reservations.renew("a", 5000)).toBe(2);
      expect(await s.reservations.renew("nobody", 5000)).toBe(0);
      // b's leases ended at 1000; c's ends at 2000, which is not before 2000
      expect(await s.reservations.releaseExpired(2000)).toBe(3);
      expect(await s.reservations.held("k1")).toBe(100);
      expect(await s.reservations.held("k2")).toBe(1200);
      expect(await s.reservations.releaseExpired(2000)).toBe(0);
      expect(await s.reservations.releaseExpired(2001)).toBe(1);
      expect(await s.reservations.held("k2")).toBe(200);
      // a released lease is gone: releasing it again frees nothing more
      await s.reservations.release("b1");
      expect(await s.reservations.held("k1")).toBe(100);
      await s.reservations.release("a1");
      expect(await s.reservations.held("k1")).toBe(0);
    });

    test("releaseAll releases every reservation of every key", async () => {
      const s = store();
      expect(await s.reservations.reserve(reservation("r1", "k1", 1000, 1000))).toBeNull();
      expect(await s.reservations.reserve(reservation("r2", "k2", 1000, 10))).toBeNull();
      expect(await s.reservations.reserve(reservation("r3", "k2", 1000, 20))).toBeNull();
      expect(await s.reservations.openCount()).toBe(3);
      expect(await s.reservations.releaseAll()).toBe(3);
      expect(await s.reservations.openCount()).toBe(0);
      expect(await s.reservations.held("k1")).toBe(0);
      expect(await s.reservations.held("k2")).toBe(0);
      expect(await s.reservations.releaseAll()).toBe(0);
      expect(await s.reservations.reserve(reservation("r4", "k1", 1000, 1000))).toBeNull();
      await s.reservations.release("r1");
      expect(await s.reservations.held("k1")).toBe(1000);
    });
  });
}
