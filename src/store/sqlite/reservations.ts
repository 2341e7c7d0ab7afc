import type { Database } from "bun:sqlite";
import type { SqliteWriter, WriteStep } from "./client";
import type { LimitWindow, ReservationStore } from "../store";

/** The spend a limit counts, read from the key's usage row (unqualified names: the stored row). */
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

/** Deletes a reservation and takes its amount off the key's `held`; shared with the generation commit. */
export function reservationReleaser(sqlite: Database): (id: string) => void {
  const remove = sqlite.query<{ key_hash: string; amount_nanos: number }, { id: string }>("DELETE FROM reservations WHERE id = $id RETURNING key_hash, amount_nanos");
  const unhold = sqlite.query("UPDATE key_usage SET held = held - $amount WHERE hash = $hash");
  return (id) => {
    const row = remove.get({ id });
    if (row) unhold.run({ hash: row.key_hash, amount: row.amount_nanos });
  };
}

export function sqliteReservationStore(sqlite: Database, write: WriteStep, writer: SqliteWriter): ReservationStore {
  const counters = ["total", "day", "week", "month"] as const;
  const reserveIn = Object.fromEntries(counters.map((c) => [c, sqlite.query(reserveStatement(c))])) as Record<LimitWindow["counter"], ReturnType<Database["query"]>>;
  const leftIn = Object.fromEntries(
    counters.map((c) => [c, sqlite.query<{ left: number }, Record<string, string | number>>(`SELECT $limit - ${spendExpression(c)} - held AS left FROM key_usage WHERE hash = $hash`)]),
  ) as Record<LimitWindow["counter"], ReturnType<typeof sqlite.query<{ left: number }, Record<string, string | number>>>>;
  const insert = sqlite.query("INSERT INTO reservations (id, key_hash, amount_nanos, created_at, instance_id, expires_at) VALUES ($id, $hash, $amount, $now, $instance, $expires)");
  const release = reservationReleaser(sqlite);
  const unhold = sqlite.query("UPDATE key_usage SET held = held - $amount WHERE hash = $hash");
  const heldBy = sqlite.query<{ held: number }, { hash: string }>("SELECT held FROM key_usage WHERE hash = $hash");
  const expiredSums = sqlite.query<{ key_hash: string; amount: number }, { now: number }>(
    "SELECT key_hash, sum(amount_nanos) AS amount FROM reservations WHERE expires_at < $now GROUP BY key_hash",
  );
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
          return Math.max(0, leftIn[window.counter].get(limitParams)?.left ?? req.limitNanos);
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
          const released = removeExpired.run({ now }).changes;
          for (const s of sums) unhold.run({ hash: s.key_hash, amount: s.amount });
          return released;
        }),
      ),
    releaseAll: () =>
      write(() =>
        writer.atomic(() => {
          const released = sqlite.run("DELETE FROM reservations").changes;
          sqlite.run("UPDATE key_usage SET held = 0 WHERE held != 0");
          return released;
        }),
      ),
  };
}
