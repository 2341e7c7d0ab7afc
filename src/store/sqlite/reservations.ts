import type { Database } from "bun:sqlite";
import type { SqliteWriter, WriteStep } from "./client";
import type { BudgetedReservationRequest, LimitWindow, ReservationRefusal, ReservationStore } from "../store";

/** The spend a limit counts, read from a usage row, a key's or a workspace's (unqualified names: the stored row). */
function spendExpression(counter: LimitWindow["counter"]): string {
  if (counter === "total") return "(total + $inc * byok_total)";
  return `(CASE WHEN ${counter}_key = $windowKey THEN ${counter} + $inc * byok_${counter} ELSE 0 END)`;
}

/**
 * Reserve in one conditional upsert of the key's usage row, whose `held` sums its open
 * reservations: the room check and the increment are one statement, so nothing can slip
 * between them (the same statement serves PostgreSQL, where it is atomic across instances).
 * A key with nothing left cannot reserve even a zero amount.
 */
function reserveStatement(counter: LimitWindow["counter"]): string {
  const left = `$limit - ${spendExpression(counter)} - held`;
  return `INSERT INTO key_usage (hash, day_key, week_key, month_key, held)
SELECT $hash, $day, $week, $month, $amount WHERE $limit > 0 AND $amount <= $limit
ON CONFLICT(hash) DO UPDATE SET held = held + $amount WHERE ${left} > 0 AND ${left} >= $amount`;
}

type Reserved = { key_hash: string; amount_nanos: number; workspace_id: string | null; workspace_amount_nanos: number };

/** Deletes a reservation and takes its amounts off the key's and the workspace's `held`; shared with the generation commit. */
export function reservationReleaser(sqlite: Database): (id: string) => void {
  const remove = sqlite.query<Reserved, { id: string }>("DELETE FROM reservations WHERE id = $id RETURNING key_hash, amount_nanos, workspace_id, workspace_amount_nanos");
  const unhold = sqlite.query("UPDATE key_usage SET held = held - $amount WHERE hash = $hash");
  const unholdWorkspace = sqlite.query("UPDATE workspace_usage SET held = held - $amount WHERE workspace_id = $id");
  return (id) => {
    const row = remove.get({ id });
    if (!row) return;
    unhold.run({ hash: row.key_hash, amount: row.amount_nanos });
    if (row.workspace_id !== null) unholdWorkspace.run({ id: row.workspace_id, amount: row.workspace_amount_nanos });
  };
}

/** What is left of a limit measured on a usage row: `$limit` minus the window's spend and `held`; the whole limit without a row. */
function leftQuery(sqlite: Database, table: "key_usage" | "workspace_usage", id: "hash" | "workspace_id") {
  const counters = ["total", "day", "week", "month"] as const;
  const queries = Object.fromEntries(
    counters.map((c) => [c, sqlite.query<{ left: number }, Record<string, string | number>>(`SELECT $limit - ${spendExpression(c)} - held AS left FROM ${table} WHERE ${id} = $id`)]),
  ) as Record<LimitWindow["counter"], ReturnType<typeof sqlite.query<{ left: number }, Record<string, string | number>>>>;
  return (rowId: string, limit: number, window: LimitWindow): number => {
    const params: Record<string, string | number> = { id: rowId, limit, inc: window.includeByok ? 1 : 0 };
    if (window.counter !== "total") params.windowKey = window.windowKey;
    return queries[window.counter].get(params)?.left ?? limit;
  };
}

/** A limit admits an amount while something is left and the amount fits in it. */
const fits = (left: number, amount: number) => left > 0 && left >= amount;

/**
 * The key limit and every workspace budget, checked and held inside one BEGIN IMMEDIATE
 * transaction: no other writer runs between the reads and the holds.
 */
function budgetedReserver(sqlite: Database) {
  const keyLeft = leftQuery(sqlite, "key_usage", "hash");
  const workspaceLeft = leftQuery(sqlite, "workspace_usage", "workspace_id");
  const holdKey = sqlite.query(`INSERT INTO key_usage (hash, day_key, week_key, month_key, held) VALUES ($id, $day, $week, $month, $amount)
ON CONFLICT(hash) DO UPDATE SET held = held + $amount`);
  const holdWorkspace = sqlite.query(`INSERT INTO workspace_usage (workspace_id, day_key, week_key, month_key, held) VALUES ($id, $day, $week, $month, $amount)
ON CONFLICT(workspace_id) DO UPDATE SET held = held + $amount`);
  const insert = sqlite.query(`INSERT INTO reservations (id, key_hash, amount_nanos, created_at, instance_id, expires_at, workspace_id, workspace_amount_nanos)
VALUES ($id, $hash, $amount, $now, $instance, $expires, $workspace, $workspaceAmount)`);
  return (req: BudgetedReservationRequest): ReservationRefusal | null => {
    const key = req.limitNanos === null ? null : Math.max(0, keyLeft(req.keyHash, req.limitNanos, req.window));
    let budget: { left: number; interval: ReservationRefusal["budget"] } | null = null;
    for (const b of req.budgets) {
      const left = Math.max(0, workspaceLeft(req.workspaceId, b.limitNanos, b.window));
      if (budget === null || left < budget.left) budget = { left, interval: b.interval };
    }
    const keyFits = key === null || fits(key, req.amountNanos);
    if (!keyFits || (budget !== null && !fits(budget.left, req.workspaceAmountNanos))) return { keyLeft: key, budgetLeft: budget?.left ?? null, budget: budget?.interval ?? null };
    const windows = { day: req.windows.day, week: req.windows.week, month: req.windows.month };
    const keyAmount = key === null ? 0 : req.amountNanos;
    if (keyAmount > 0) holdKey.run({ id: req.keyHash, ...windows, amount: keyAmount });
    holdWorkspace.run({ id: req.workspaceId, ...windows, amount: req.workspaceAmountNanos });
    insert.run({
      id: req.id, hash: req.keyHash, amount: keyAmount, now: req.now, instance: req.instanceId, expires: req.expiresAt, workspace: req.workspaceId, workspaceAmount: req.workspaceAmountNanos,
    });
    return null;
  };
}

export function sqliteReservationStore(sqlite: Database, write: WriteStep, writer: SqliteWriter): ReservationStore {
  const counters = ["total", "day", "week", "month"] as const;
  const reserveIn = Object.fromEntries(counters.map((c) => [c, sqlite.query(reserveStatement(c))])) as Record<LimitWindow["counter"], ReturnType<Database["query"]>>;
  const keyLeft = leftQuery(sqlite, "key_usage", "hash");
  const insert = sqlite.query("INSERT INTO reservations (id, key_hash, amount_nanos, created_at, instance_id, expires_at) VALUES ($id, $hash, $amount, $now, $instance, $expires)");
  const release = reservationReleaser(sqlite);
  const unhold = sqlite.query("UPDATE key_usage SET held = held - $amount WHERE hash = $hash");
  const heldBy = sqlite.query<{ held: number }, { hash: string }>("SELECT held FROM key_usage WHERE hash = $hash");
  const expiredSums = sqlite.query<{ key_hash: string; amount: number }, { now: number }>(
    "SELECT key_hash, sum(amount_nanos) AS amount FROM reservations WHERE expires_at < $now GROUP BY key_hash",
  );
  const expiredWorkspaceSums = sqlite.query<{ workspace_id: string; amount: number }, { now: number }>(
    "SELECT workspace_id, sum(workspace_amount_nanos) AS amount FROM reservations WHERE expires_at < $now AND workspace_id IS NOT NULL GROUP BY workspace_id",
  );
  const unholdWorkspace = sqlite.query("UPDATE workspace_usage SET held = held - $amount WHERE workspace_id = $id");
  const reserveWithBudgets = budgetedReserver(sqlite);
  const removeExpired = sqlite.query("DELETE FROM reservations WHERE expires_at < $now");
  const renew = sqlite.query("UPDATE reservations SET expires_at = $expires WHERE instance_id = $instance");
  return {
    reserve: (req) =>
      write(() =>
        writer.atomic(() => {
          const { window } = req;
          // the total counter has no window key to compare
          const limitParams: Record<string, string | number> = { hash: req.keyHash, limit: req.limitNanos, inc: window.includeByok ? 1 : 0 };
          if (window.counter !== "total") limitParams.windowKey = window.windowKey;
          const reserveParams = { ...limitParams, amount: req.amountNanos, day: req.windows.day, week: req.windows.week, month: req.windows.month };
          if (reserveIn[window.counter].run(reserveParams).changes === 1) {
            insert.run({ id: req.id, hash: req.keyHash, amount: req.amountNanos, now: req.now, instance: req.instanceId, expires: req.expiresAt });
            return null;
          }
          return Math.max(0, keyLeft(req.keyHash, req.limitNanos, window));
        }),
      ),
    release: (id) => write(() => writer.atomic(() => release(id))),
    async held(keyHash) {
      return heldBy.get({ hash: keyHash })?.held ?? 0;
    },
    renew: (instanceId, expiresAt) => write(() => renew.run({ instance: instanceId, expires: expiresAt }).changes),
    releaseExpired: (now) =>
      write(() =>
        writer.atomic(() => {
          const sums = expiredSums.all({ now });
          if (sums.length === 0) return 0;
          const workspaceSums = expiredWorkspaceSums.all({ now });
          const released = removeExpired.run({ now }).changes;
          for (const s of sums) unhold.run({ hash: s.key_hash, amount: s.amount });
          for (const s of workspaceSums) unholdWorkspace.run({ id: s.workspace_id, amount: s.amount });
          return released;
        }),
      ),
    releaseAll: () =>
      write(() =>
        writer.atomic(() => {
          const released = sqlite.run("DELETE FROM reservations").changes;
          sqlite.run("UPDATE key_usage SET held = 0 WHERE held != 0");
          sqlite.run("UPDATE workspace_usage SET held = 0 WHERE held != 0");
          return released;
        }),
      ),
    reserveWithBudgets: (req) => write(() => writer.atomic(() => reserveWithBudgets(req))),
    async openCount() {
      return sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM reservations").get()?.n ?? 0;
    },
  };
}
