import { and, desc, eq, gte, inArray, lte, type SQL, sql } from "drizzle-orm";
import type { ActivityQuery, RollupGroup, RollupQuery } from "../store";
import type { activityDaily } from "../tables/money";
import type { EitherTable, Ordering } from "./shapes";

/**
 * The conditions and order of activity queries. What they select and group by stays with each
 * dialect: PostgreSQL's sums of int8 arrive as numeric strings, SQLite's as numbers, and drizzle
 * takes only the dialect's own columns there.
 */
export function activityQueries(a: EitherTable<typeof activityDaily>, o: Ordering) {
  return {
    /** what a rollup groups by; `all` is one text constant, written as the dialect types it */
    rollupGroups: (all: SQL<string>): Record<RollupGroup, SQL<string>> => ({
      day: sql`${a.day}`,
      model: sql`${a.model}`,
      key: sql`${a.keyHash}`,
      provider: sql`${a.providerName}`,
      all,
    }),
    /** the day range is the primary key's prefix */
    rollupWhere: (q: RollupQuery) =>
      and(gte(a.day, q.from), lte(a.day, q.to), q.workspaceIds === undefined ? undefined : inArray(a.workspaceId, [...q.workspaceIds])),
    totalsWhere: (q: ActivityQuery) =>
      and(
        gte(a.day, q.from),
        lte(a.day, q.to),
        q.workspaceId === undefined ? undefined : eq(a.workspaceId, q.workspaceId),
        q.keyHash === undefined ? undefined : eq(a.keyHash, q.keyHash),
        q.userId === undefined ? undefined : eq(a.userId, q.userId),
      ),
    totalsOrder: (q: ActivityQuery) => [
      desc(a.day),
      o.ascText(a.model),
      o.ascText(a.endpointId),
      o.ascText(a.providerName),
      ...(q.byWorkspace ? [o.ascText(a.workspaceId)] : []),
    ],
  };
}
