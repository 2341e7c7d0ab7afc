import { type AnyColumn, and, desc, eq, getTableColumns, gt, gte, inArray, lt, lte, ne, notInArray, or, type SQL, sql } from "drizzle-orm";
import type { AnalyticsCounterQuery, AnalyticsCounterRow, AnalyticsFilter, AnalyticsTimeBucket, RefusalCursor, RefusalFilter } from "../analytics-store";
import type { analyticsHourly, refusalsHourly, refusedRequests } from "../tables/analytics";
import type { EitherTable, Ordering } from "./shapes";

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
/** the first Monday after the epoch (1970-01-05): ISO weeks start on Mondays */
const FIRST_MONDAY_MS = 4 * DAY_MS;

function filterCondition(column: AnyColumn, f: AnalyticsFilter): SQL | undefined {
  const [first = ""] = f.values;
  switch (f.op) {
    case "eq":
      return eq(column, first);
    case "neq":
      return ne(column, first);
    case "gt":
      return gt(column, first);
    case "gte":
      return gte(column, first);
    case "lt":
      return lt(column, first);
    case "lte":
      return lte(column, first);
    case "in":
      return f.values.length === 0 ? sql`1 = 0` : inArray(column, [...f.values]);
    case "not_in":
      return f.values.length === 0 ? undefined : notInArray(column, [...f.values]);
  }
}

/**
 * The analytics counters' reads: the hour range is the primary key's prefix, a member's workspaces
 * and one key each have an index with the hour after them. What is summed and grouped is the
 * caller's choice; each dialect selects it (PostgreSQL's sums of int8 arrive as numeric strings).
 */
export function analyticsQueries(h: EitherTable<typeof analyticsHourly>) {
  const columns = new Map<string, AnyColumn>(Object.values(getTableColumns(h)).map((c) => [c.name, c as AnyColumn]));
  const column = (name: string): AnyColumn => {
    const c = columns.get(name);
    if (!c) throw new Error(`analytics_hourly has no column ${name}`);
    return c;
  };
  return {
    column,
    /** the first millisecond of a row's time bucket */
    bucket: (b: Exclude<AnalyticsTimeBucket, null>): SQL<number> =>
      b === "hour"
        ? sql<number>`${h.hour}`
        : // constants written out: PostgreSQL matches a grouped expression to the selected one only when both are the same text
          b === "day"
          ? sql<number>`(${h.hour} - ${h.hour} % ${sql.raw(String(DAY_MS))})`
          : sql<number>`(${h.hour} - (${h.hour} - ${sql.raw(String(FIRST_MONDAY_MS))}) % ${sql.raw(String(WEEK_MS))})`,
    where: (q: AnalyticsCounterQuery) => and(gte(h.hour, q.fromHour), lt(h.hour, q.toHour), ...q.filters.map((f) => filterCondition(column(f.column), f))),
  };
}

/** The refused requests' reads: a listing newest first by an index of its filter, and the hourly counters by their hour range. */
export function refusalQueries(r: EitherTable<typeof refusedRequests>, c: EitherTable<typeof refusalsHourly>, o: Ordering) {
  return {
    listed: (f: RefusalFilter, before: RefusalCursor | null) =>
      and(
        f.workspaceIds === undefined ? undefined : f.workspaceIds.length === 0 ? sql`1 = 0` : inArray(r.workspaceId, [...f.workspaceIds]),
        f.keyHash === undefined ? undefined : eq(r.keyHash, f.keyHash),
        f.status === undefined ? undefined : eq(r.status, f.status),
        f.from === undefined ? undefined : gte(r.createdAt, f.from),
        f.to === undefined ? undefined : lt(r.createdAt, f.to),
        before === null ? undefined : or(lt(r.createdAt, before.createdAt), and(eq(r.createdAt, before.createdAt), o.textBefore(r.id, before.id))),
      ),
    listOrder: [desc(r.createdAt), o.descText(r.id)],
    counted: (q: { fromHour: number; toHour: number; workspaceIds?: readonly string[] }) =>
      and(
        gte(c.hour, q.fromHour),
        lt(c.hour, q.toHour),
        q.workspaceIds === undefined ? undefined : q.workspaceIds.length === 0 ? sql`1 = 0` : inArray(c.workspaceId, [...q.workspaceIds]),
      ),
    purged: (before: number) => lt(r.createdAt, before),
  };
}

/** A selected row of an analytics query as the store answers it (the dialects select `bucket`, `g_<column>`, `s_<column>`). */
export function counterRow(row: Record<string, unknown>, q: AnalyticsCounterQuery): AnalyticsCounterRow {
  const out: AnalyticsCounterRow = { bucket: q.bucket === null ? null : Number(row.bucket), groups: {}, sums: {} };
  for (const g of q.groupBy) out.groups[g] = String(row[`g_${g}`]);
  for (const s of q.sums) out.sums[s] = Number(row[`s_${s}`] ?? 0);
  return out;
}
