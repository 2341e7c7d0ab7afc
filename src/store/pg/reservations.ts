import { eq, sql } from "drizzle-orm";
import { toNumber, type Conn } from "./client";
import { keyUsage, reservations } from "./schema";
import type { LimitWindow, ReservationStore } from "../store";

const COUNTERS = { total: ["total", "byok_total"], day: ["day", "byok_day"], week: ["week", "byok_week"], month: ["month", "byok_month"] } as const;
const WINDOW_KEYS = { day: "day_key", week: "week_key", month: "month_key" } as const;

/** The spend of `u` (a key_usage row) that counts against a limit of this window. */
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
      await db.execute(sql`
        with gone as (delete from reservations where id = ${id} returning key_hash, amount_nanos)
        update key_usage u set held = u.held - gone.amount_nanos from gone where u.hash = gone.key_hash`);
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
        with gone as (delete from reservations where expires_at < ${now}::bigint returning key_hash, amount_nanos),
        per_key as (select key_hash, sum(amount_nanos) as amount, count(*) as n from gone group by key_hash),
        freed as (update key_usage u set held = u.held - per_key.amount from per_key where u.hash = per_key.key_hash)
        select coalesce(sum(n), 0) as n from per_key`);
      return toNumber(row?.n);
    },
    async releaseAll() {
      const [row] = await db.execute<{ n: string }>(sql`
        with gone as (delete from reservations returning 1),
        freed as (update key_usage set held = 0 where held <> 0)
        select count(*) as n from gone`);
      return toNumber(row?.n);
    },
  };
}
