import type { Database } from "bun:sqlite";
import { eq, sql } from "drizzle-orm";
import type { KeyUsageRow, KeyUsageStore, SpendEntry } from "../store";
import type { Db, WriteStep } from "./client";
import { keyUsage } from "./schema";

/**
 * One upsert of a usage row (a key's, or a workspace's: same columns but the id): window counters
 * restart from the new amount when their window key changed, otherwise they accumulate. Plain
 * SQL because the CASE expressions read the old row.
 */
const upsert = (table: "key_usage" | "workspace_usage" | "member_usage", ids: string[]) => `
INSERT INTO ${table} (${ids.join(", ")}, day_key, week_key, month_key, total, day, week, month, byok_total, byok_day, byok_week, byok_month)
VALUES (${ids.map((_, i) => (i === 0 ? "$hash" : "$user")).join(", ")}, $day, $week, $month, $paid, $paid, $paid, $paid, $byok, $byok, $byok, $byok)
ON CONFLICT(${ids.join(", ")}) DO UPDATE SET
  total = total + $paid,
  byok_total = byok_total + $byok,
  day = CASE WHEN day_key = $day THEN day + $paid ELSE $paid END,
  byok_day = CASE WHEN day_key = $day THEN byok_day + $byok ELSE $byok END,
  week = CASE WHEN week_key = $week THEN week + $paid ELSE $paid END,
  byok_week = CASE WHEN week_key = $week THEN byok_week + $byok ELSE $byok END,
  month = CASE WHEN month_key = $month THEN month + $paid ELSE $paid END,
  byok_month = CASE WHEN month_key = $month THEN byok_month + $byok ELSE $byok END,
  day_key = $day, week_key = $week, month_key = $month`;

const USAGE_ROWS = {
  key: upsert("key_usage", ["hash"]),
  workspace: upsert("workspace_usage", ["workspace_id"]),
  member: upsert("member_usage", ["workspace_id", "user_id"]),
};

type Row = typeof keyUsage.$inferSelect;

const toRow = ({ held: _held, ...row }: Row): KeyUsageRow => row;

/**
 * The spend statement (of a key's row, with `workspace` of a workspace's, with `member` of a
 * member's: the workspace, then `user`), shared with the generation commit that runs it inside
 * its transaction.
 */
export function spendAdder(sqlite: Database, of: keyof typeof USAGE_ROWS = "key"): (id: string, spend: SpendEntry, user?: string) => void {
  const statement = sqlite.query(USAGE_ROWS[of]);
  return (hash, { nanos, byok, windows }, user) =>
    void statement.run({
      hash,
      ...(user === undefined ? {} : { user }),
      day: windows.day,
      week: windows.week,
      month: windows.month,
      paid: byok ? 0 : nanos,
      byok: byok ? nanos : 0,
    });
}

export function sqliteKeyUsageStore(db: Db, sqlite: Database, write: WriteStep): KeyUsageStore {
  const add = spendAdder(sqlite);
  const byHash = db
    .select()
    .from(keyUsage)
    .where(eq(keyUsage.hash, sql.placeholder("hash")))
    .prepare();
  return {
    async get(hash) {
      const row = byHash.get({ hash });
      return row ? toRow(row) : undefined;
    },
    add: (hash, spend) => write(() => add(hash, spend)),
  };
}
