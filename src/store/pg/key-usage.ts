import { eq, sql } from "drizzle-orm";
import type { KeyUsageRow, KeyUsageStore } from "../store";
import type { Conn } from "./client";
import { keyUsage } from "./schema";

/**
 * ON CONFLICT clause shared by every statement that adds spend: window counters restart from the
 * new amount when their window key changed, otherwise they accumulate. The inserted row (excluded)
 * carries the amount in every counter of its kind and the current window keys.
 */
export const addSpendOnConflict = (id: "hash" | "workspace_id" | "workspace_id, user_id") => `on conflict (${id}) do update set
  total = u.total + excluded.total,
  byok_total = u.byok_total + excluded.byok_total,
  day = case when u.day_key = excluded.day_key then u.day + excluded.day else excluded.day end,
  byok_day = case when u.day_key = excluded.day_key then u.byok_day + excluded.byok_day else excluded.byok_day end,
  week = case when u.week_key = excluded.week_key then u.week + excluded.week else excluded.week end,
  byok_week = case when u.week_key = excluded.week_key then u.byok_week + excluded.byok_week else excluded.byok_week end,
  month = case when u.month_key = excluded.month_key then u.month + excluded.month else excluded.month end,
  byok_month = case when u.month_key = excluded.month_key then u.byok_month + excluded.byok_month else excluded.byok_month end,
  day_key = excluded.day_key, week_key = excluded.week_key, month_key = excluded.month_key`;

export const spendColumns = (id: "hash" | "workspace_id" | "workspace_id, user_id") =>
  `${id}, day_key, week_key, month_key, total, day, week, month, byok_total, byok_day, byok_week, byok_month`;

export function pgKeyUsageStore({ db }: Conn): KeyUsageStore {
  return {
    async get(hash) {
      const [row] = await db.select().from(keyUsage).where(eq(keyUsage.hash, hash));
      if (!row) return undefined;
      const { held: _held, ...usage } = row;
      return usage satisfies KeyUsageRow;
    },
    async add(hash, { nanos, byok, windows }) {
      const paid = byok ? 0 : nanos;
      const own = byok ? nanos : 0;
      await db.execute(sql`
        insert into key_usage as u (${sql.raw(spendColumns("hash"))})
        values (${hash}, ${windows.day}, ${windows.week}, ${windows.month},
          ${paid}::bigint, ${paid}::bigint, ${paid}::bigint, ${paid}::bigint, ${own}::bigint, ${own}::bigint, ${own}::bigint, ${own}::bigint)
        ${sql.raw(addSpendOnConflict("hash"))}`);
    },
  };
}
