/** Contract: workspace budgets, workspace spend, reservations against key limit and budgets, activity counters, feedback. */
import { describe, expect, test } from "bun:test";
import type { BudgetCheck, BudgetedReservationRequest, GenerationRecord, LimitWindow, Store, WorkspaceBudgetRecord } from "../../../src/store/store";
import { generation, LAST_MONTH, NOW, reservation, settled, TODAY, TOMORROW, usageRow } from "./fixtures";

const budget = (workspaceId: string, interval: WorkspaceBudgetRecord["interval"], limitNanos: number, at = NOW): WorkspaceBudgetRecord => ({
  id: `b-${workspaceId}-${interval}`,
  workspaceId,
  interval,
  limitNanos,
  alertThresholds: null,
  createdAt: at,
  updatedAt: at,
});

const lifetime = (limitNanos: number, includeByok = false): BudgetCheck => ({
  interval: "lifetime",
  limitNanos,
  window: { counter: "total", windowKey: "", includeByok },
});
const daily = (limitNanos: number, day = TODAY.day, includeByok = false): BudgetCheck => ({
  interval: "daily",
  limitNanos,
  window: { counter: "day", windowKey: day, includeByok },
});

/** A reservation of `amount` on key `k` (limit `keyLimit`, null: none) and `workspaceAmount` on workspace `w` under `budgets`. */
const budgeted = (
  id: string,
  keyLimit: number | null,
  amount: number,
  budgets: BudgetCheck[],
  workspaceAmount = amount,
  extra: Partial<BudgetedReservationRequest> = {},
): BudgetedReservationRequest => ({
  ...reservation(id, "k", 0, amount),
  limitNanos: keyLimit,
  workspaceId: "w",
  budgets,
  workspaceAmountNanos: workspaceAmount,
  ...extra,
});

const workspaceRow = (windows: typeof TODAY, counters: Parameters<typeof usageRow>[2]) => {
  const { hash: _hash, ...row } = usageRow("", windows, counters);
  return { workspaceId: "w", ...row };
};

export function budgetContract(store: () => Store): void {
  describe("workspace budgets", () => {
    test("put creates or changes a budget keeping its id and creation time; list is narrowest first; delete", async () => {
      const s = store();
      expect(await s.budgets.list("w")).toEqual([]);
      expect(await s.budgets.put(budget("w", "lifetime", 900))).toEqual(budget("w", "lifetime", 900));
      await s.budgets.put(budget("w", "daily", 100));
      await s.budgets.put(budget("other", "weekly", 5));
      const changed = await s.budgets.put({ ...budget("w", "lifetime", 800, NOW + 5), id: "ignored" });
      expect(changed).toEqual({ ...budget("w", "lifetime", 800), updatedAt: NOW + 5 });
      expect(await s.budgets.list("w")).toEqual([budget("w", "daily", 100), { ...budget("w", "lifetime", 800), updatedAt: NOW + 5 }]);
      expect((await s.budgets.listAll()).map((b) => b.id).sort()).toEqual(["b-other-weekly", "b-w-daily", "b-w-lifetime"]);
      expect(await s.budgets.delete("w", "daily")).toBe(true);
      expect(await s.budgets.delete("w", "daily")).toBe(false);
      expect((await s.budgets.list("w")).map((b) => b.interval)).toEqual(["lifetime"]);
    });

    test("a generation's spend goes to its workspace's counters too, with the same window rules", async () => {
      const s = store();
      expect(await s.budgets.usage("w")).toBeUndefined();
      await s.generations.commit([
        settled(generation("g1", "k1", 100, { workspaceId: "w" }), { windows: LAST_MONTH }),
        settled(generation("g2", "k2", 30, { workspaceId: "w" }), { byok: true, windows: LAST_MONTH }),
      ]);
      await s.generations.commit([
        settled(generation("g3", "k1", 5, { workspaceId: "w" }), { windows: TODAY }),
        settled(generation("g4", "k3", 7, { workspaceId: "w2" }), { windows: TODAY }),
      ]);
      expect(await s.budgets.usage("w")).toEqual(workspaceRow(TODAY, { total: 105, day: 5, week: 5, month: 5, byokTotal: 30 }));
      expect(await s.budgets.totalSpend()).toEqual({ total: 112, byokTotal: 30 });
    });
  });

  describe("reservations with workspace budgets", () => {
    test("holds on the key and the workspace only when both fit; refusals say what is left of each", async () => {
      const s = store();
      expect(await s.reservations.reserveWithBudgets(budgeted("r1", 1000, 600, [lifetime(700)]))).toBeNull();
      expect(await s.reservations.held("k")).toBe(600);
      expect(await s.budgets.held("w")).toBe(600);
      // the key has room (400), the budget not (100): nothing is held
      expect(await s.reservations.reserveWithBudgets(budgeted("r2", 1000, 200, [lifetime(700)]))).toEqual({
        keyLeft: 400,
        budgetLeft: 100,
        budget: "lifetime",
      });
      // the budget has room, the key not
      expect(await s.reservations.reserveWithBudgets(budgeted("r3", 650, 60, [lifetime(10_000)]))).toEqual({
        keyLeft: 50,
        budgetLeft: 9400,
        budget: "lifetime",
      });
      expect(await s.reservations.held("k")).toBe(600);
      expect(await s.budgets.held("w")).toBe(600);
      expect(await s.reservations.reserveWithBudgets(budgeted("r4", 1000, 100, [lifetime(700)]))).toBeNull();
      expect(await s.budgets.held("w")).toBe(700);
      // nothing left refuses even zero
      expect(await s.reservations.reserveWithBudgets(budgeted("r5", null, 0, [lifetime(700)]))).toEqual({ keyLeft: null, budgetLeft: 0, budget: "lifetime" });
    });

    test("a key without a limit holds nothing itself; the tightest budget is named", async () => {
      const s = store();
      await s.usage.add("k", { nanos: 10_000, byok: false, windows: TODAY });
      await s.generations.commit([settled(generation("g1", "k", 300, { workspaceId: "w" }))]);
      expect(await s.reservations.reserveWithBudgets(budgeted("r1", null, 500, [daily(1000), lifetime(5000)]))).toBeNull();
      expect(await s.reservations.held("k")).toBe(0);
      expect(await s.budgets.held("w")).toBe(500);
      expect(await s.reservations.reserveWithBudgets(budgeted("r2", null, 201, [daily(1000), lifetime(5000)]))).toEqual({
        keyLeft: null,
        budgetLeft: 200,
        budget: "daily",
      });
      // yesterday's spend does not count against tomorrow's daily budget; held does
      expect(await s.reservations.reserveWithBudgets(budgeted("r3", null, 500, [daily(1000, TOMORROW.day)]))).toBeNull();
      expect(await s.budgets.held("w")).toBe(1000);
    });

    test("key and workspace amounts differ (BYOK counted on one side only); includeByok counts the workspace's BYOK spend", async () => {
      const s = store();
      await s.generations.commit([settled(generation("g1", "other", 400, { workspaceId: "w" }), { byok: true })]);
      const withByok = { ...lifetime(1000), window: { counter: "total", windowKey: "", includeByok: true } as LimitWindow };
      expect(await s.reservations.reserveWithBudgets(budgeted("r1", 1000, 0, [withByok], 601))).toEqual({ keyLeft: 1000, budgetLeft: 600, budget: "lifetime" });
      expect(await s.reservations.reserveWithBudgets(budgeted("r2", 1000, 0, [lifetime(1000)], 601))).toBeNull();
      expect(await s.reservations.held("k")).toBe(0);
      expect(await s.budgets.held("w")).toBe(601);
    });

    test("commit, release and lease expiry free the workspace's share with the key's", async () => {
      const s = store();
      expect(await s.reservations.reserveWithBudgets(budgeted("r1", 1000, 100, [lifetime(1000)], 110))).toBeNull();
      expect(await s.reservations.reserveWithBudgets(budgeted("r2", 1000, 200, [lifetime(1000)], 220))).toBeNull();
      expect(await s.reservations.reserveWithBudgets(budgeted("r3", null, 0, [lifetime(1000)], 330, { instanceId: "dead", expiresAt: NOW - 1 }))).toBeNull();
      expect([await s.reservations.held("k"), await s.budgets.held("w")]).toEqual([300, 660]);
      await s.generations.commit([settled(generation("g1", "k", 50, { workspaceId: "w" }), { reservationId: "r1" })]);
      expect([await s.reservations.held("k"), await s.budgets.held("w")]).toEqual([200, 550]);
      expect((await s.budgets.usage("w"))?.total).toBe(50);
      await s.reservations.release("r2");
      expect([await s.reservations.held("k"), await s.budgets.held("w")]).toEqual([0, 330]);
      expect(await s.reservations.releaseExpired(NOW)).toBe(1);
      expect(await s.budgets.held("w")).toBe(0);
      expect(await s.reservations.reserveWithBudgets(budgeted("r4", null, 0, [lifetime(1000)], 950))).toBeNull();
      expect(await s.reservations.releaseAll()).toBe(1);
      expect(await s.budgets.held("w")).toBe(0);
      // a record without spend releases the workspace's share too
      expect(await s.reservations.reserveWithBudgets(budgeted("r5", 1000, 10, [lifetime(1000)], 20))).toBeNull();
      await s.generations.commit([settled(generation("g2", "k", 0, { workspaceId: "w" }), { reservationId: "r5", nanos: null })]);
      expect([await s.reservations.held("k"), await s.budgets.held("w")]).toEqual([0, 0]);
    });

    test("200 parallel reservations over three keys never hold more than the budget", async () => {
      const s = store();
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          s.reservations.reserveWithBudgets({ ...budgeted(`r${i}`, 5000, 7, [daily(1000), lifetime(2000)]), keyHash: `k${i % 3}` }),
        ),
      );
      expect(results.filter((r) => r === null).length).toBe(142);
      expect(new Set(results.filter((r) => r !== null).map((r) => r!.budgetLeft))).toEqual(new Set([6]));
      expect(await s.budgets.held("w")).toBe(994);
      const keys = await Promise.all(["k0", "k1", "k2"].map((k) => s.reservations.held(k)));
      expect(keys.reduce((a, b) => a + b, 0)).toBe(994);
    });
  });

  describe("activity counters", () => {
    const served = (id: string, extra: Partial<GenerationRecord> = {}) =>
      generation(id, "k1", 1000, {
        workspaceId: "w1",
        userId: "u1",
        providerName: "acme",
        endpointId: "acme/alpha@acme",
        tokensPrompt: 10,
        tokensCompletion: 20,
        tokensReasoning: 3,
        ...extra,
      });

    test("served generations add to their day, workspace, key, model and endpoint; totals group and filter", async () => {
      const s = store();
      await s.generations.commit([
        settled(served("g1")),
        settled(served("g2", { costNanos: 500 })),
        settled(served("g3", { keyHash: "k2", userId: null, workspaceId: "w2", isByok: true }), { byok: true }),
        settled(served("g4", { model: "acme/beta", endpointId: "acme/beta@acme" })),
        settled(served("g5"), { windows: TOMORROW }),
        // not served: no endpoint, no activity
        settled(generation("g6", "k1", 0, { workspaceId: "w1" }), { nanos: null }),
      ]);
      // a retried record counts once
      await s.generations.commit([settled(served("g1"))]);
      const row = (day: string, extra: Record<string, unknown>) => ({
        day,
        workspaceId: null,
        model: "acme/alpha",
        providerName: "acme",
        endpointId: "acme/alpha@acme",
        requests: 1,
        promptTokens: 10,
        completionTokens: 20,
        reasoningTokens: 3,
        usageNanos: 1000,
        byokUsageNanos: 0,
        ...extra,
      });
      const all = { from: TODAY.day, to: TOMORROW.day, byWorkspace: false };
      expect(await s.activity.totals(all)).toEqual([
        row(TOMORROW.day, {}),
        row(TODAY.day, { requests: 3, promptTokens: 30, completionTokens: 60, reasoningTokens: 9, usageNanos: 1500, byokUsageNanos: 1000 }),
        row(TODAY.day, { model: "acme/beta", endpointId: "acme/beta@acme" }),
      ]);
      expect(await s.activity.totals({ ...all, from: TOMORROW.day })).toEqual([row(TOMORROW.day, {})]);
      expect(await s.activity.totals({ ...all, to: TODAY.day, byWorkspace: true })).toEqual([
        row(TODAY.day, { workspaceId: "w1", requests: 2, promptTokens: 20, completionTokens: 40, reasoningTokens: 6, usageNanos: 1500 }),
        row(TODAY.day, { workspaceId: "w2", usageNanos: 0, byokUsageNanos: 1000 }),
        row(TODAY.day, { workspaceId: "w1", model: "acme/beta", endpointId: "acme/beta@acme" }),
      ]);
      expect(await s.activity.totals({ ...all, keyHash: "k2" })).toEqual([row(TODAY.day, { usageNanos: 0, byokUsageNanos: 1000 })]);
      expect(await s.activity.totals({ ...all, userId: "u1", workspaceId: "w1", to: TODAY.day })).toEqual([
        row(TODAY.day, { requests: 2, promptTokens: 20, completionTokens: 40, reasoningTokens: 6, usageNanos: 1500 }),
        row(TODAY.day, { model: "acme/beta", endpointId: "acme/beta@acme" }),
      ]);
      expect(await s.activity.totals({ ...all, workspaceId: "nope" })).toEqual([]);
    });
  });

  describe("generation feedback", () => {
    test("stored per generation, read back oldest first", async () => {
      const s = store();
      expect(await s.generations.feedback("g1")).toEqual([]);
      const second = { id: "f2", generationId: "g1", keyHash: "k", category: "other", comment: null, createdAt: NOW + 1 };
      const first = { id: "f1", generationId: "g1", keyHash: "k", category: "latency", comment: "slow \u00e9", createdAt: NOW };
      await s.generations.addFeedback(second);
      await s.generations.addFeedback(first);
      await s.generations.addFeedback({ ...first, id: "f3", generationId: "g2" });
      expect(await s.generations.feedback("g1")).toEqual([first, second]);
    });
  });
}
