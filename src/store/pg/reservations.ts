import { eq, type SQL, sql } from "drizzle-orm";
import type { BudgetedReservationRequest, CapCheck, CapLeft, LimitWindow, ReservationRefusal, ReservationStore } from "../store";
import { type Conn, type Db, toNumber } from "./client";
import { keyUsage, reservations } from "./schema";

const COUNTERS = { total: ["total", "byok_total"], day: ["day", "byok_day"], week: ["week", "byok_week"], month: ["month", "byok_month"] } as const;
const WINDOW_KEYS = { day: "day_key", week: "week_key", month: "month_key" } as const;

/** The spend of `u` (a key_usage or workspace_usage row) that counts against a limit of this window. */
function windowSpend(window: LimitWindow) {
  const [paid, byok] = COUNTERS[window.counter];
  const spend = sql.raw(window.includeByok ? `(u.${paid} + u.${byok})` : `u.${paid}`);
  if (window.counter === "total") return spend;
  return sql`(case when u.${sql.raw(WINDOW_KEYS[window.counter])} = ${window.windowKey}::text then ${spend} else 0 end)`;
}

/**
 * Reservations on PostgreSQL: the sum of a key's open reservations lives in key_usage.held, so
 * that reserving is one conditional upsert of that row (its row lock orders racing instances)
 * and every release is one statement that deletes the rows and takes their sum off `held`.
 */
export function pgReservationStore({ db }: Conn): ReservationStore {
  return {
    async reserve(req) {
      const { limitNanos: limit, amountNanos: amount, windows } = req;
      const reserved = await db.execute<{ id: string }>(sql`
        with held as (
          insert into key_usage as u (hash, day_key, week_key, month_key, held)
          select ${req.keyHash}::text, ${windows.day}::text, ${windows.week}::text, ${windows.month}::text, ${amount}::bigint
          where ${limit}::bigint > 0 and ${amount}::bigint <= ${limit}::bigint
          on conflict (hash) do update set held = u.held + excluded.held
          where ${limit}::bigint - ${windowSpend(req.window)} - u.held > 0
            and ${limit}::bigint - ${windowSpend(req.window)} - u.held >= excluded.held
          returning hash
        )
        insert into reservations (id, key_hash, amount_nanos, created_at, instance_id, expires_at)
        select ${req.id}::text, hash, ${amount}::bigint, ${req.now}::bigint, ${req.instanceId}::text, ${req.expiresAt}::bigint from held
        returning id`);
      if (reserved.length > 0) return null;
      const [row] = await db.execute<{ left: string }>(sql`
        select ${limit}::bigint - ${windowSpend(req.window)} - u.held as left from key_usage u where u.hash = ${req.keyHash}`);
      return Math.max(0, row ? toNumber(row.left) : limit);
    },
    async release(id) {
      // the key row, then the workspace row, then the member row, in the order reservations lock them
      await db.execute(sql`
        with gone as (
          delete from reservations where id = ${id}
          returning key_hash, amount_nanos, workspace_id, workspace_amount_nanos, member_user_id, member_amount_nanos
        ),
        unheld as (update key_usage u set held = u.held - gone.amount_nanos from gone where u.hash = gone.key_hash returning 1),
        wunheld as (
          update workspace_usage w set held = w.held - gone.workspace_amount_nanos from gone
          where w.workspace_id = gone.workspace_id and (select count(*) from unheld) >= 0
          returning 1
        )
        update member_usage m set held = m.held - gone.member_amount_nanos from gone
        where m.workspace_id = gone.workspace_id and m.user_id = gone.member_user_id and (select count(*) from wunheld) >= 0`);
    },
    async held(keyHash) {
      const [row] = await db.select({ held: keyUsage.held }).from(keyUsage).where(eq(keyUsage.hash, keyHash));
      return row?.held ?? 0;
    },
    async renew(instanceId, expiresAt) {
      const rows = await db.update(reservations).set({ expiresAt }).where(eq(reservations.instanceId, instanceId)).returning({ id: reservations.id });
      return rows.length;
    },
    async releaseExpired(now) {
      const [row] = await db.execute<{ n: string }>(sql`
        with gone as (
          delete from reservations where expires_at < ${now}::bigint
          returning key_hash, amount_nanos, workspace_id, workspace_amount_nanos, member_user_id, member_amount_nanos
        ),
        per_key as (select key_hash, sum(amount_nanos) as amount, count(*) as n from gone group by key_hash),
        freed as (update key_usage u set held = u.held - per_key.amount from per_key where u.hash = per_key.key_hash returning 1),
        per_workspace as (select workspace_id, sum(workspace_amount_nanos) as amount from gone where workspace_id is not null group by workspace_id),
        freed_workspaces as (
          update workspace_usage w set held = w.held - per_workspace.amount from per_workspace
          where w.workspace_id = per_workspace.workspace_id and (select count(*) from freed) >= 0
          returning 1
        ),
        per_member as (
          select workspace_id, member_user_id, sum(member_amount_nanos) as amount from gone where member_user_id is not null group by workspace_id, member_user_id
        ),
        freed_members as (
          update member_usage m set held = m.held - per_member.amount from per_member
          where m.workspace_id = per_member.workspace_id and m.user_id = per_member.member_user_id and (select count(*) from freed_workspaces) >= 0
        )
        select coalesce(sum(n), 0) as n from per_key`);
      return toNumber(row?.n);
    },
    async releaseAll() {
      const [row] = await db.execute<{ n: string }>(sql`
        with gone as (delete from reservations returning 1),
        freed as (update key_usage set held = 0 where held <> 0 returning 1),
        freed_workspaces as (update workspace_usage set held = 0 where held <> 0 and (select count(*) from freed) >= 0 returning 1),
        freed_members as (update member_usage set held = 0 where held <> 0 and (select count(*) from freed_workspaces) >= 0)
        select count(*) as n from gone`);
      return toNumber(row?.n);
    },
    // a reservation row outlives the process that took it: nothing to hold again
    restore: async () => false,
    reserveWithBudgets: (req) => reserveWithBudgets(db, req),
    async openCount() {
      const [row] = await db.execute<{ n: string }>(sql`select count(*) as n from reservations`);
      return toNumber(row?.n);
    },
  };
}

/** Every budget leaves room for `amount` on `u`, the workspace's usage row. */
function budgetsAdmit(req: BudgetedReservationRequest, amount: SQL): SQL {
  return allOf(req.budgets.map((b) => roomOn(b.limitNanos, b.window, amount)));
}

/** The same for a workspace without a usage row yet (nothing spent, nothing held). */
function budgetsAdmitFresh(req: BudgetedReservationRequest): SQL {
  return allOf(req.budgets.map((b) => roomFresh(b.limitNanos, sql`${req.workspaceAmountNanos}::bigint`)));
}

const allOf = (checks: SQL[]): SQL => (checks.length === 0 ? sql`true` : sql.join(checks, sql` and `));

/** a limit of this window leaves room for `amount` on `u` (a usage row with `held`) */
const roomOn = (limitNanos: number, window: LimitWindow, amount: SQL): SQL => {
  const left = sql`(${limitNanos}::bigint - ${windowSpend(window)} - u.held)`;
  return sql`${left} > 0 and ${left} >= ${amount}`;
};

/** the same on a row not made yet */
const roomFresh = (limitNanos: number, amount: SQL): SQL => sql`${limitNanos}::bigint > 0 and ${amount} <= ${limitNanos}::bigint`;

/** The checks on the key's row: its own limit (when it has one) and the caps measured on it. */
function keyChecks(req: BudgetedReservationRequest): Array<{ limitNanos: number; window: LimitWindow }> {
  const own = req.limitNanos === null ? [] : [{ limitNanos: req.limitNanos, window: req.window }];
  return [...own, ...capsOn(req, "key")];
}

const capsOn = (req: BudgetedReservationRequest, on: CapCheck["on"]): CapCheck[] => (req.caps ?? []).filter((c) => c.on === on);

/** What is left of one limit on a usage row (absent row: the whole limit). */
async function leftOn(db: Db, table: SQL, where: SQL, limitNanos: number, window: LimitWindow): Promise<number> {
  const [row] = await db.execute<{ left: string }>(sql`select ${limitNanos}::bigint - ${windowSpend(window)} - u.held as left from ${table} u where ${where}`);
  return Math.max(0, row ? toNumber(row.left) : limitNanos);
}

/** Refused: what is left of the key's limit, of the tightest budget and of each cap, read after the attempt. */
async function refusal(db: Db, req: BudgetedReservationRequest): Promise<ReservationRefusal> {
  const keyRow = sql`u.hash = ${req.keyHash}`;
  const keyLeft = req.limitNanos === null ? null : await leftOn(db, sql`key_usage`, keyRow, req.limitNanos, req.window);
  let budget: { left: number; interval: ReservationRefusal["budget"] } | null = null;
  for (const b of req.budgets) {
    const left = await leftOn(db, sql`workspace_usage`, sql`u.workspace_id = ${req.workspaceId}`, b.limitNanos, b.window);
    if (budget === null || left < budget.left) budget = { left, interval: b.interval };
  }
  const memberRow = sql`u.workspace_id = ${req.workspaceId} and u.user_id = ${req.member?.userId ?? ""}`;
  const caps: CapLeft[] = [];
  for (const c of req.caps ?? [])
    caps.push({
      id: c.id,
      on: c.on,
      left: await leftOn(db, c.on === "key" ? sql`key_usage` : sql`member_usage`, c.on === "key" ? keyRow : memberRow, c.limitNanos, c.window),
    });
  return { keyLeft, budgetLeft: budget?.left ?? null, budget: budget?.interval ?? null, ...(req.caps?.length ? { caps } : {}) };
}

class Refused extends Error {}

/**
 * In one transaction: the conditional upsert of the key's row (its row lock orders racing
 * instances, as `reserve` does), then the conditional upsert of the workspace's row, whose lock
 * orders every reservation of the workspace, then, when a guardrail budget is measured on the
 * key's creator, that member's row, and the reservation row. Any upsert finding no room rolls the
 * whole back. Key row, workspace row, member row: the generation commit writes them in the same
 * order, so two never wait on each other in a cycle.
 */
async function reserveWithBudgets(db: Db, req: BudgetedReservationRequest): Promise<ReservationRefusal | null> {
  const { windows } = req;
  const onKey = keyChecks(req);
  const keyHeld = onKey.length > 0;
  const keyAmount = keyHeld ? req.amountNanos : 0;
  const keyAmountSql = sql`${keyAmount}::bigint`;
  const workspaceAmount = sql`${req.workspaceAmountNanos}::bigint`;
  const onMember = capsOn(req, "member");
  const member = onMember.length > 0 && req.member ? req.member : null;
  const memberAmount = sql`${member?.amountNanos ?? 0}::bigint`;
  try {
    await db.transaction(async (tx) => {
      const held = await tx.execute<{ id: string }>(sql`
        with k as (
          insert into key_usage as u (hash, day_key, week_key, month_key, held)
          select ${req.keyHash}::text, ${windows.day}::text, ${windows.week}::text, ${windows.month}::text, ${keyAmountSql}
          where ${keyHeld}::boolean and ${allOf(onKey.map((c) => roomFresh(c.limitNanos, keyAmountSql)))}
          on conflict (hash) do update set held = u.held + excluded.held
          where ${allOf(onKey.map((c) => roomOn(c.limitNanos, c.window, sql`excluded.held`)))}
          returning hash
        ),
        w as (
          insert into workspace_usage as u (workspace_id, day_key, week_key, month_key, held)
          select ${req.workspaceId}::text, ${windows.day}::text, ${windows.week}::text, ${windows.month}::text, ${workspaceAmount}
          where (not ${keyHeld}::boolean or exists (select 1 from k)) and ${budgetsAdmitFresh(req)}
          on conflict (workspace_id) do update set held = u.held + excluded.held
          where ${budgetsAdmit(req, workspaceAmount)}
          returning workspace_id
        ),
        m as (
          insert into member_usage as u (workspace_id, user_id, day_key, week_key, month_key, held)
          select ${req.workspaceId}::text, ${member?.userId ?? ""}::text, ${windows.day}::text, ${windows.week}::text, ${windows.month}::text, ${memberAmount}
          where ${member !== null}::boolean and exists (select 1 from w) and ${allOf(onMember.map((c) => roomFresh(c.limitNanos, memberAmount)))}
          on conflict (workspace_id, user_id) do update set held = u.held + excluded.held
          where ${allOf(onMember.map((c) => roomOn(c.limitNanos, c.window, sql`excluded.held`)))}
          returning user_id
        )
        insert into reservations (id, key_hash, amount_nanos, created_at, instance_id, expires_at, workspace_id, workspace_amount_nanos, member_user_id, member_amount_nanos)
        select ${req.id}::text, ${req.keyHash}::text, ${keyAmountSql}, ${req.now}::bigint, ${req.instanceId}::text, ${req.expiresAt}::bigint, workspace_id, ${workspaceAmount},
          (select user_id from m), ${memberAmount}
        from w where (not ${member !== null}::boolean or exists (select 1 from m))
        returning id`);
      // the key's row may hold the amount while a budget had no room: undo it with the rest
      if (held.length === 0) throw new Refused();
    });
    return null;
  } catch (err) {
    if (!(err instanceof Refused)) throw err;
    return refusal(db, req);
  }
}
