import { sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { activityQueries } from "../queries/activity";
import type { ActivityStore, RollupQuery } from "../store";
import type { Conn, Db } from "./client";
import { order } from "./order";
import { activityDaily } from "./schema";

/** sums of int8 arrive as numeric strings */
const total = (column: AnyPgColumn) => sql<number>`sum(${column})`.mapWith(Number);

const a = activityDaily;
const q = activityQueries(a, order);
const groupColumn = q.rollupGroups(sql`''::text`);

/** A rollup's query: the day range is the primary key's prefix (exported for the query-plan test). */
export function rollupQuery(db: Db, rollup: RollupQuery) {
  const group = groupColumn[rollup.by];
  const spend = sql`sum(${a.usageNanos}) + sum(${a.byokUsageNanos})`;
  const query = db
    .select({ group: sql<string>`${group}`, requests: total(a.requests), usageNanos: total(a.usageNanos), byokUsageNanos: total(a.byokUsageNanos) })
    .from(a)
    .where(q.rollupWhere(rollup))
    .groupBy(group)
    .orderBy(...(rollup.top === undefined ? [sql`${group} collate "C" asc`] : [sql`${spend} desc`, sql`${group} collate "C" asc`]));
  return rollup.top === undefined ? query : query.limit(rollup.top);
}

export function pgActivityStore({ db }: Conn): ActivityStore {
  return {
    async rollup(rollup) {
      return await rollupQuery(db, rollup);
    },
    async totals(totals) {
      const workspace = totals.byWorkspace ? sql<string | null>`${a.workspaceId}` : sql<string | null>`null::text`;
      return db
        .select({
          day: a.day,
          workspaceId: workspace,
          model: a.model,
          providerName: a.providerName,
          endpointId: a.endpointId,
          requests: total(a.requests),
          promptTokens: total(a.promptTokens),
          completionTokens: total(a.completionTokens),
          reasoningTokens: total(a.reasoningTokens),
          usageNanos: total(a.usageNanos),
          byokUsageNanos: total(a.byokUsageNanos),
        })
        .from(a)
        .where(q.totalsWhere(totals))
        .groupBy(a.day, a.model, a.providerName, a.endpointId, ...(totals.byWorkspace ? [a.workspaceId] : []))
        .orderBy(...q.totalsOrder(totals));
    },
  };
}
