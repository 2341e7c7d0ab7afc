import { asc, desc, sql } from "drizzle-orm";
import { activityQueries } from "../queries/activity";
import type { ActivityStore, RollupQuery } from "../store";
import type { Db } from "./client";
import { order } from "./order";
import { activityDaily } from "./schema";

const a = activityDaily;
const q = activityQueries(a, order);
const groupColumn = q.rollupGroups(sql`''`);

/** A rollup's query: the day range is the primary key's prefix (exported for the query-plan test). */
export function rollupQuery(db: Db, rollup: RollupQuery) {
  const group = groupColumn[rollup.by];
  const spend = sql<number>`sum(${a.usageNanos}) + sum(${a.byokUsageNanos})`;
  const query = db
    .select({
      group: sql<string>`${group}`,
      requests: sql<number>`sum(${a.requests})`,
      usageNanos: sql<number>`sum(${a.usageNanos})`,
      byokUsageNanos: sql<number>`sum(${a.byokUsageNanos})`,
    })
    .from(a)
    .where(q.rollupWhere(rollup))
    .groupBy(group)
    .orderBy(...(rollup.top === undefined ? [asc(group)] : [desc(spend), asc(group)]));
  return rollup.top === undefined ? query : query.limit(rollup.top);
}

export function sqliteActivityStore(db: Db): ActivityStore {
  return {
    async rollup(rollup) {
      // an empty range sums to no rows (GROUP BY); `all` groups by a constant
      return rollupQuery(db, rollup).all();
    },
    async totals(totals) {
      const workspace = totals.byWorkspace ? a.workspaceId : sql<string | null>`null`;
      return db
        .select({
          day: a.day,
          workspaceId: sql<string | null>`${workspace}`,
          model: a.model,
          providerName: a.providerName,
          endpointId: a.endpointId,
          requests: sql<number>`sum(${a.requests})`,
          promptTokens: sql<number>`sum(${a.promptTokens})`,
          completionTokens: sql<number>`sum(${a.completionTokens})`,
          reasoningTokens: sql<number>`sum(${a.reasoningTokens})`,
          usageNanos: sql<number>`sum(${a.usageNanos})`,
          byokUsageNanos: sql<number>`sum(${a.byokUsageNanos})`,
        })
        .from(a)
        .where(q.totalsWhere(totals))
        .groupBy(a.day, a.model, a.providerName, a.endpointId, ...(totals.byWorkspace ? [a.workspaceId] : []))
        .orderBy(...q.totalsOrder(totals))
        .all();
    },
  };
}
