import type { ApiKeyRecord, KeyUsageRow, LimitWindow } from "../store/store";
import { windowKeys } from "./windows";

/** A key's spend in nano-dollars: all time and in the current UTC day, ISO week and month. */
export type KeySpend = {
  total: number;
  day: number;
  week: number;
  month: number;
  byokTotal: number;
  byokDay: number;
  byokWeek: number;
  byokMonth: number;
};

export function keySpend(row: KeyUsageRow | undefined, now: number): KeySpend {
  if (!row) return { total: 0, day: 0, week: 0, month: 0, byokTotal: 0, byokDay: 0, byokWeek: 0, byokMonth: 0 };
  const w = windowKeys(now);
  const day = row.dayKey === w.day;
  const week = row.weekKey === w.week;
  const month = row.monthKey === w.month;
  return {
    total: row.total,
    day: day ? row.day : 0,
    week: week ? row.week : 0,
    month: month ? row.month : 0,
    byokTotal: row.byokTotal,
    byokDay: day ? row.byokDay : 0,
    byokWeek: week ? row.byokWeek : 0,
    byokMonth: month ? row.byokMonth : 0,
  };
}

/** Spend that counts against the key's limit in its current reset window. */
export function spendInLimitWindow(key: Pick<ApiKeyRecord, "limitReset" | "includeByokInLimit">, spend: KeySpend): number {
  const [paid, byok] =
    key.limitReset === "daily"
      ? [spend.day, spend.byokDay]
      : key.limitReset === "weekly"
        ? [spend.week, spend.byokWeek]
        : key.limitReset === "monthly"
          ? [spend.month, spend.byokMonth]
          : [spend.total, spend.byokTotal];
  return paid + (key.includeByokInLimit ? byok : 0);
}

/** What is left of the key's limit (never negative), or null when it has none. */
export function limitRemainingNanos(key: Pick<ApiKeyRecord, "limitNanos" | "limitReset" | "includeByokInLimit">, spend: KeySpend): number | null {
  if (key.limitNanos === null) return null;
  return Math.max(0, key.limitNanos - spendInLimitWindow(key, spend));
}

/** Which counter of the key's usage row its limit is measured against, for the store's atomic reserve. */
export function limitWindow(key: Pick<ApiKeyRecord, "limitReset" | "includeByokInLimit">, now: number): LimitWindow {
  const w = windowKeys(now);
  const includeByok = key.includeByokInLimit;
  if (key.limitReset === "daily") return { counter: "day", windowKey: w.day, includeByok };
  if (key.limitReset === "weekly") return { counter: "week", windowKey: w.week, includeByok };
  if (key.limitReset === "monthly") return { counter: "month", windowKey: w.month, includeByok };
  return { counter: "total", windowKey: "", includeByok };
}
