import type { Database } from "bun:sqlite";
import { eq, sql } from "drizzle-orm";
import type { Db, WriteStep } from "./client";
import { keyUsage } from "./schema";
import type { KeyUsageRow, KeyUsageStore, SpendEntry } from "../store";

/**
 * One upsert: window counters restart from the new amount when their window key changed,
 * otherwise they accumulate. Plain SQL because the CASE expressions read the old row.
 */
const UPSERT = `
INSERT INTO key_usage (hash, day_key, week_key, month_key, total, day, week, month, byok_total, byok_day, byok_week, byok_month)
VALUES ($hash, $day, $week, $month, $paid, $paid, $paid, $paid, $byok, $byok, $byok, $byok)
ON CONFLICT(hash) DO UPDATE SET
  total = total + $paid,
  byok_total = byok_total + $byok,
  day = CASE WHEN day_key = $day THEN day + $paid ELSE $paid END,
  byok_day = CASE WHEN day_key = $day THEN byok_day + $byok ELSE $byok END,
  week = CASE WHEN week_key = $week THEN week + $paid ELSE $paid END,
  byok_week = CASE WHEN week_key = $week THEN byok_week + $byok ELSE $byok END,
  month = CASE WHEN month_key = $month THEN month + $paid ELSE $paid END,
  byok_month = CASE WHEN month_key = $month THEN byok_month + $byok ELSE $byok END,
  day_key = $day, week_key = $week, month_key = $month`;

type Row = typeof keyUsage.$inferSelect;

const toRow = ({ held: _held, ...row }: Row): KeyUsageRow => row;

/** The spend statement, shared with the generation commit that runs it inside its transaction. */
export function spendAdder(sqlite: Database): (hash: string, spend: SpendEntry) => void {
  const upsert = sqlite.query(UPSERT);
  return (hash, { nanos, byok, windows }) =>
    void upsert.run({ hash, day: windows.day, week: windows.week, month: windows.month, paid: byok ? 0 : nanos, byok: byok ? nanos : 0 });
}

export function sqliteKeyUsageStore(db: Db, sqlite: Database, write: WriteStep): KeyUsageStore {
  const add = spendAdder(sqlite);
  const byHash = db.select().from(keyUsage).where(eq(keyUsage.hash, sql.placeholder("hash"))).prepare();
  return {
    async get(hash) {
      const row = byHash.get({ hash });
      return row ? toRow(row) : undefined;
    },
    add: (hash, spend) => write(() => add(hash, spend)),
  };
}
