import { and, desc, eq, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Conn, Db } from "./client";
import { ascText } from "./order";
import { activityDaily } from "./schema";
import type { ActivityStore, RollupGroup, RollupQuery } from "../store";

/** sums of int8 arrive as numeric strings */
const total = (column: AnyPgColumn) => sql<number>`sum(${column})`.mapWith(Number);

const groupColumn: Record<RollupGroup, SQL<string>> = {
  day: sql`${activityDaily.day}`,
  model: sql`${activityDaily.model}`,
  key: sql`${activityDaily.keyHash}`,
  provider: sql`${activityDaily.providerName}`,
  all: sql`''::text`,
};

/** A rollup's query: the day range is the primary key's prefix (exported for the query-plan test). */
export function rollupQuery(db: Db, q: RollupQuery) {
  const a = activityDaily;
  const group = groupColumn[q.by];
  const spend = sql`sum(${a.usageNanos}) + sum(${a.byokUsageNanos})`;
  const query = db
    .select({ group: sql<string>`${group}`, requests: total(a.requests), usageNanos: total(a.usageNanos), byokUsageNanos: total(a.byokUsageNanos) })
    .from(a)
    .where(and(gte(a.day, q.from), lte(a.day, q.to), q.workspaceIds === undefined ? undefined : inArray(a.workspaceId, [...q.workspaceIds])))
    .groupBy(group)
    .orderBy(...(q.top === undefined ? [sql`${group} collate "C" asc`] : [sql`${spend} desc`, sql`${group} collate "C" asc`]));
  return q.top === undefined ? query : query.limit(q.top);
}

export function pgActivityStore({ db }: Conn): ActivityStore {
  const a = activityDaily;
  return {
    async rollup(q) {
      return await rollupQuery(db, q);
    },
    async totals(q) {
      const where: SQL[] = [gte(a.day, q.from), lte(a.day, q.to)];
      if (q.workspaceId !== undefined) where.push(eq(a.workspaceId, q.workspaceId));
      if (q.keyHash !== undefined) where.push(eq(a.keyHash, q.keyHash));
      if (q.userId !== undefined) where.push(eq(a.userId, q.userId));
      const workspace = q.byWorkspace ? sql<string | null>`${a.workspaceId}` : sql<string | null>`null::text`;
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
        .where(and(...where))
        .groupBy(a.day, a.model, a.providerName, a.endpointId, ...(q.byWorkspace ? [a.workspaceId] : []))
        .orderBy(desc(a.day), ascText(a.model), ascText(a.endpointId), ascText(a.providerName), ...(q.byWorkspace ? [ascText(a.workspaceId)] : []));
    },
  };
}
