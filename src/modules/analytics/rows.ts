import type { AnalyticsCounterRow, AnalyticsSumColumn } from "../../store/store";
import type { Granularity } from "./dimensions";
import type { Sums } from "./metrics";
import type { AnalyticsRowOut } from "./model";
import type { AnalyticsPlan } from "./plan";

/** A bucket's key as rows show it: the hour in ISO 8601, a day, week (its Monday) or month (its 1st) as a date. */
export function dateKey(granularity: Granularity, bucketMs: number): string {
  const iso = new Date(bucketMs).toISOString();
  if (granularity === "hour") return `${iso.slice(0, 13)}:00:00Z`;
  if (granularity === "month") return `${iso.slice(0, 7)}-01`;
  return iso.slice(0, 10);
}

/** The counter groups merged by their date key (days into months) and dimension values, sums added. */
export function mergedGroups(plan: AnalyticsPlan, rows: readonly AnalyticsCounterRow[]): Array<{ date: string | null; groups: string[]; sums: Sums }> {
  const merged = new Map<string, { date: string | null; groups: string[]; sums: Sums }>();
  for (const row of rows) {
    const date = plan.granularity === null || row.bucket === null ? null : dateKey(plan.granularity, row.bucket);
    const groups = plan.dimensions.map((d) => row.groups[d.column] ?? "");
    const id = JSON.stringify([date, groups]);
    const seen = merged.get(id);
    if (!seen) {
      merged.set(id, { date, groups, sums: { ...row.sums } });
      continue;
    }
    for (const [column, value] of Object.entries(row.sums) as Array<[AnalyticsSumColumn, number]>) seen.sums[column] = (seen.sums[column] ?? 0) + value;
  }
  return [...merged.values()];
}

type Shaped = { row: AnalyticsRowOut; groupKey: string };

/** Rows with their metrics and labelled dimensions, ordered, `group_limit` rows per combination of dimension values, at most `limit`. */
export function shapedRows(
  plan: AnalyticsPlan,
  groups: ReturnType<typeof mergedGroups>,
  label: (dimension: string, value: string) => string,
): { rows: AnalyticsRowOut[]; truncated: boolean } {
  const dateField = plan.granularity === null ? null : `date__${plan.granularity}`;
  const shaped: Array<Shaped & { requests: number }> = groups.map((g) => {
    const row: AnalyticsRowOut = {};
    if (dateField !== null) row[dateField] = g.date;
    plan.dimensions.forEach((d, i) => {
      row[d.name] = label(d.name, g.groups[i]!);
    });
    for (const m of plan.metrics) row[m.name] = m.value(g.sums);
    return { row, groupKey: JSON.stringify(g.groups), requests: g.sums.requests ?? 0 };
  });
  const sign = plan.order.direction === "asc" ? 1 : -1;
  const orderValue = (s: (typeof shaped)[number]): string | number | null =>
    plan.order.kind === "date"
      ? (s.row[dateField!] as string)
      : plan.order.name === "request_count" && !(plan.order.name in s.row)
        ? s.requests
        : s.row[plan.order.name]!;
  shaped.sort((a, b) => compare(orderValue(a), orderValue(b)) * sign || tieBreak(a.row, b.row, plan, dateField));
  const perGroup = new Map<string, number>();
  const withinGroupLimit = (s: Shaped) => {
    const n = (perGroup.get(s.groupKey) ?? 0) + 1;
    perGroup.set(s.groupKey, n);
    return plan.groupLimit === null || n <= plan.groupLimit;
  };
  const kept = shaped.filter(withinGroupLimit);
  return { rows: kept.slice(0, plan.limit).map((s) => s.row), truncated: kept.length > plan.limit };
}

/** ascending; null (a latency of no generation) after every value */
function compare(a: string | number | null, b: string | number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

/** a total order: newest date first, then dimension values ascending */
function tieBreak(a: AnalyticsRowOut, b: AnalyticsRowOut, plan: AnalyticsPlan, dateField: string | null): number {
  if (dateField !== null) {
    const byDate = compare(b[dateField] ?? null, a[dateField] ?? null);
    if (byDate !== 0) return byDate;
  }
  for (const d of plan.dimensions) {
    const byValue = compare(a[d.name] ?? null, b[d.name] ?? null);
    if (byValue !== 0) return byValue;
  }
  return 0;
}
