/** Contract: guardrails, their key and member assignments, the guardrails of a key, member spend and guardrail caps in reservations. */
import { describe, expect, test } from "bun:test";
import type { BudgetedReservationRequest, CapCheck, GuardrailRecord, Store } from "../../../src/store/store";
import { apiKey, generation, NOW, reservation, settled, TODAY, usageRow } from "./fixtures";

const guardrail = (id: string, workspaceId: string, createdAt = NOW, extra: Partial<GuardrailRecord> = {}): GuardrailRecord => ({
  id,
  workspaceId,
  name: `guardrail ${id}`,
  description: null,
  rules: { allowed_models: ["acme/alpha"], content_filters: [{ pattern: "x+", action: "redact", label: null }] },
  limitNanos: null,
  resetInterval: null,
  includeByokInBudgets: false,
  createdAt,
  updatedAt: null,
  ...extra,
});

const row = (prefix: string) => (of: string) => ({ id: `${prefix}-${of}`, assignedBy: "admin", createdAt: NOW });
let rowId = 0;
const fresh = () => ({ id: `a${++rowId}`, assignedBy: null, createdAt: NOW });

const lifetimeCap = (id: string, on: CapCheck["on"], limitNanos: number): CapCheck => ({
  id,
  on,
  limitNanos,
  window: { counter: "total", windowKey: "", includeByok: false },
});

const capped = (id: string, amount: number, caps: CapCheck[], member: BudgetedReservationRequest["member"] = null): BudgetedReservationRequest => ({
  ...reservation(id, "k", 0, amount),
  limitNanos: null,
  workspaceId: "w",
  budgets: [],
  workspaceAmountNanos: 0,
  caps,
  member,
});

export function guardrailContract(store: () => Store): void {
  describe("guardrails", () => {
    test("create, get, list in creation order per workspace, count, update (only what the patch sets), delete", async () => {
      const s = store();
      const a = await s.guardrails.create(guardrail("g1", "w", NOW));
      expect(a).toEqual(guardrail("g1", "w", NOW));
      await s.guardrails.create(guardrail("g2", "w", NOW + 1, { limitNanos: 5, resetInterval: "daily", includeByokInBudgets: true }));
      await s.guardrails.create(guardrail("g3", "other", NOW));
      expect((await s.guardrails.list("w", 0, 10)).map((g) => g.id)).toEqual(["g1", "g2"]);
      expect((await s.guardrails.list("w", 1, 10)).map((g) => g.id)).toEqual(["g2"]);
      expect(await s.guardrails.count("w")).toBe(2);
      const updated = await s.guardrails.update("g1", { name: "renamed", rules: { enforce_zdr_openai: true }, limitNanos: null }, NOW + 9);
      expect(updated).toEqual({ ...a, name: "renamed", rules: { enforce_zdr_openai: true }, updatedAt: NOW + 9 });
      expect(await s.guardrails.get("g1")).toEqual(updated);
      expect(await s.guardrails.update("missing", { name: "x" }, NOW)).toBeUndefined();
      expect(await s.guardrails.delete("g2")).toBe(true);
      expect(await s.guardrails.delete("g2")).toBe(false);
      expect(await s.guardrails.get("g2")).toBeUndefined();
    });

    test("a key holds one guardrail: assigning moves it, assigning twice adds no row; unassign counts only its own", async () => {
      const s = store();
      await s.keys.create(apiKey("k1", "w", NOW, { name: "first", label: "sk-...1" }));
      await s.keys.create(apiKey("k2", "w", NOW));
      await s.guardrails.create(guardrail("g1", "w"));
      await s.guardrails.create(guardrail("g2", "w"));
      expect(await s.guardrails.assignKeys("g1", ["k1", "k2", "k1"], row("x"))).toBe(2);
      expect(await s.guardrails.assignKeys("g1", ["k1"], fresh)).toBe(0);
      expect(await s.guardrails.countKeyAssignments("g1")).toBe(2);
      expect(await s.guardrails.assignKeys("g2", ["k2"], () => ({ id: "moved", assignedBy: null, createdAt: NOW + 1 }))).toBe(1);
      expect(await s.guardrails.keyAssignments("g1", 0, 10)).toEqual([
        { id: "x-k1", guardrailId: "g1", keyHash: "k1", keyName: "first", keyLabel: "sk-...1", assignedBy: "admin", createdAt: NOW },
      ]);
      expect((await s.guardrails.keyAssignments(null, 0, 10)).map((a) => [a.keyHash, a.guardrailId])).toEqual([
        ["k1", "g1"],
        ["k2", "g2"],
      ]);
      expect(await s.guardrails.countKeyAssignments(null)).toBe(2);
      expect(await s.guardrails.unassignKeys("g1", ["k1", "k2"])).toBe(1);
      expect(await s.guardrails.countKeyAssignments("g1")).toBe(0);
    });

    test("a member holds one guardrail per workspace; deleting a guardrail removes its assignments", async () => {
      const s = store();
      await s.guardrails.create(guardrail("g1", "w"));
      await s.guardrails.create(guardrail("g2", "w"));
      await s.guardrails.create(guardrail("g3", "other"));
      expect(await s.guardrails.assignMembers({ id: "g1", workspaceId: "w" }, ["u1", "u2"], fresh)).toBe(2);
      expect(await s.guardrails.assignMembers({ id: "g3", workspaceId: "other" }, ["u1"], fresh)).toBe(1);
      expect(await s.guardrails.assignMembers({ id: "g2", workspaceId: "w" }, ["u1"], fresh)).toBe(1);
      expect((await s.guardrails.memberAssignments(null, 0, 10)).map((a) => [a.userId, a.guardrailId, a.workspaceId])).toEqual([
        ["u2", "g1", "w"],
        ["u1", "g3", "other"],
        ["u1", "g2", "w"],
      ]);
      expect(await s.guardrails.unassignMembers("g1", ["u1", "u2"])).toBe(1);
      await s.guardrails.assignKeys("g2", ["k"], fresh);
      expect(await s.guardrails.delete("g2")).toBe(true);
      expect(await s.guardrails.countMemberAssignments(null)).toBe(1);
      expect(await s.guardrails.countKeyAssignments(null)).toBe(0);
    });

    test("the guardrails of a key: its workspace's default (when stored), its creator's in its workspace, its own", async () => {
      const s = store();
      const key = { hash: "k", workspaceId: "w", creatorUserId: "u" };
      expect(await s.guardrails.applying("default-w", key)).toEqual([]);
      await s.guardrails.create(guardrail("default-w", "w"));
      await s.guardrails.create(guardrail("gk", "w"));
      await s.guardrails.create(guardrail("gm", "w"));
      await s.guardrails.create(guardrail("gm-other", "other"));
      await s.guardrails.assignKeys("gk", ["k"], fresh);
      await s.guardrails.assignMembers({ id: "gm", workspaceId: "w" }, ["u"], fresh);
      await s.guardrails.assignMembers({ id: "gm-other", workspaceId: "other" }, ["u"], fresh);
      const applying = await s.guardrails.applying("default-w", key);
      expect(applying.map((a) => [a.scope, a.guardrail.id])).toEqual([
        ["workspace", "default-w"],
        ["member", "gm"],
        ["key", "gk"],
      ]);
      expect(applying[0]!.guardrail).toEqual(guardrail("default-w", "w"));
      expect((await s.guardrails.applying("default-x", { ...key, creatorUserId: null })).map((a) => a.scope)).toEqual(["key"]);
    });

    test("a generation's spend goes to its member's counters (workspace and creator); none without a creator", async () => {
      const s = store();
      await s.generations.commit([
        settled(generation("g1", "k1", 100, { workspaceId: "w", userId: "u" })),
        settled(generation("g2", "k2", 30, { workspaceId: "w", userId: "u" }), { byok: true }),
        settled(generation("g3", "k3", 7, { workspaceId: "w2", userId: "u" })),
        settled(generation("g4", "k4", 9, { workspaceId: "w", userId: null })),
      ]);
      const { hash: _hash, ...counters } = usageRow("", TODAY, {
        total: 100,
        day: 100,
        week: 100,
        month: 100,
        byokTotal: 30,
        byokDay: 30,
        byokWeek: 30,
        byokMonth: 30,
      });
      expect(await s.guardrails.memberUsage("w", "u")).toEqual({ workspaceId: "w", ...counters });
      expect((await s.guardrails.memberUsage("w2", "u"))?.total).toBe(7);
      expect(await s.guardrails.memberUsage("w", "nobody")).toBeUndefined();
    });

    test("guardrail flags of a generation read back; absent when none", async () => {
      const s = store();
      await s.generations.commit([settled(generation("g1", "k", 1, { guardrailFlags: ["Email address"] })), settled(generation("g2", "k", 1))]);
      expect((await s.generations.get("g1"))?.guardrailFlags).toEqual(["Email address"]);
      expect(await s.generations.get("g2")).toEqual(generation("g2", "k", 1));
    });
  });

  describe("reservations with guardrail caps", () => {
    test("a cap on the key holds on the key's row even without a key limit; refusals say what is left of each cap", async () => {
      const s = store();
      await s.usage.add("k", { nanos: 300, byok: false, windows: TODAY });
      expect(await s.reservations.reserveWithBudgets(capped("r1", 500, [lifetimeCap("g", "key", 1000)]))).toBeNull();
      expect(await s.reservations.held("k")).toBe(500);
      expect(await s.reservations.reserveWithBudgets(capped("r2", 201, [lifetimeCap("g", "key", 1000), lifetimeCap("h", "key", 5000)]))).toEqual({
        keyLeft: null,
        budgetLeft: null,
        budget: null,
        caps: [
          { id: "g", on: "key", left: 200 },
          { id: "h", on: "key", left: 4200 },
        ],
      });
      expect(await s.reservations.reserveWithBudgets(capped("r3", 200, [lifetimeCap("g", "key", 1000)]))).toBeNull();
      expect(await s.reservations.held("k")).toBe(700);
    });

    test("a member cap counts the member's spend and holds, across the member's keys; commit and release free it", async () => {
      const s = store();
      await s.generations.commit([settled(generation("g0", "other-key", 400, { workspaceId: "w", userId: "u" }))]);
      const member = (amountNanos: number) => ({ userId: "u", amountNanos });
      const cap = [lifetimeCap("m", "member", 1000)];
      expect(await s.reservations.reserveWithBudgets(capped("r1", 0, cap, member(500)))).toBeNull();
      expect(await s.guardrails.memberHeld("w", "u")).toBe(500);
      expect(await s.reservations.held("k")).toBe(0);
      expect(await s.reservations.reserveWithBudgets({ ...capped("r2", 0, cap, member(101)), keyHash: "k2" })).toEqual({
        keyLeft: null,
        budgetLeft: null,
        budget: null,
        caps: [{ id: "m", on: "member", left: 100 }],
      });
      await s.generations.commit([settled(generation("g1", "k", 50, { workspaceId: "w", userId: "u" }), { reservationId: "r1" })]);
      expect(await s.guardrails.memberHeld("w", "u")).toBe(0);
      expect((await s.guardrails.memberUsage("w", "u"))?.total).toBe(450);
      expect(await s.reservations.reserveWithBudgets(capped("r3", 0, cap, member(550)))).toBeNull();
      await s.reservations.release("r3");
      expect(await s.guardrails.memberHeld("w", "u")).toBe(0);
      expect(await s.reservations.reserveWithBudgets(capped("r4", 0, cap, member(10)))).toBeNull();
      expect(await s.reservations.releaseAll()).toBe(1);
      expect(await s.guardrails.memberHeld("w", "u")).toBe(0);
    });

    test("restore holds a lost reservation again (key, workspace, member) once, without a check; PostgreSQL's rows need none", async () => {
      const s = store();
      const held = {
        keyHash: "k",
        keyNanos: 700,
        workspaceId: "w",
        workspaceNanos: 300,
        memberUserId: "u",
        memberNanos: 500,
        instanceId: "video",
        expiresAt: 10_000,
      };
      const sqlite = s.dialect === "sqlite";
      expect(await s.reservations.restore("lost", held)).toBe(sqlite);
      expect(await s.reservations.restore("lost", held)).toBe(false);
      if (!sqlite) return;
      expect(await s.reservations.held("k")).toBe(700);
      expect(await s.budgets.held("w")).toBe(300);
      expect(await s.guardrails.memberHeld("w", "u")).toBe(500);
      // it counts against the member's cap like any hold, and goes with its commit
      expect(await s.reservations.reserveWithBudgets(capped("r1", 0, [lifetimeCap("m", "member", 1000)], { userId: "u", amountNanos: 501 }))).toEqual({
        keyLeft: null,
        budgetLeft: null,
        budget: null,
        caps: [{ id: "m", on: "member", left: 500 }],
      });
      await s.generations.commit([settled(generation("g1", "k", 50, { workspaceId: "w", userId: "u" }), { reservationId: "lost" })]);
      expect(await s.reservations.held("k")).toBe(0);
      expect(await s.budgets.held("w")).toBe(0);
      expect(await s.guardrails.memberHeld("w", "u")).toBe(0);
    });
  });
}
