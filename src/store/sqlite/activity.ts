import { and, desc, asc, eq, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import type { Db } from "./client";
import { activityDaily } from "./schema";
import type { ActivityStore, RollupGroup, RollupQuery } from "../store";

const a = activityDaily;
const groupColumn: Record<RollupGroup, SQL<string>> = { day: sql`${a.day}`, model: sql`${a.model}`, key: sql`${a.keyHash}`, provider: sql`${a.providerName}`, all: sql`''` };

/** A rollup's query: the day range is the primary key's prefix (exported for the query-plan test). */
export function rollupQuery(db: Db, q: RollupQuery) {
  const group = groupColumn[q.by];
  const spend = sql<number>`sum(${a.usageNanos}) + sum(${a.byokUsageNanos})`;
  const query = db
    .select({
      group: sql<string>`${group}`,
      requests: sql<number>`sum(${a.requests})`,
      usageNanos: sql<number>`sum(${a.usageNanos})`,
      byokUsageNanos: sql<number>`sum(${a.byokUsageNanos})`,
    })
    .from(a)
    .where(and(gte(a.day, q.from), lte(a.day, q.to), q.workspaceIds === undefined ? undefined : inArray(a.workspaceId, [...q.workspaceIds])))
    .groupBy(group)
    .orderBy(...(q.top === undefined ? [asc(group)] : [desc(spend), asc(group)]));
  return q.top === undefined ? query : query.limit(q.top);
}

export function sqliteActivityStore(db: Db): ActivityStore {
  const a = activityDaily;
  return {
    async rollup(q) {
      // an empty range sums to no rows (GROUP BY); `all` groups by a constant
      return rollupQuery(db, q).all();
    },
    async totals(q) {
      const where: SQL[] = [gte(a.day, q.from), lte(a.day, q.to)];
      if (q.workspaceId !== undefined) where.push(eq(a.workspaceId, q.workspaceId));
      if (q.keyHash !== undefined) where.push(eq(a.keyHash, q.keyHash));
      if (q.userId !== undefined) where.push(eq(a.userId, q.userId));
      const workspace = q.byWorkspace ? a.workspaceId : sql<string | null>`null`;
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
        .where(and(...where))
        .groupBy(a.day, a.model, a.providerName, a.endpointId, ...(q.byWorkspace ? [a.workspaceId] : []))
        .orderBy(desc(a.day), asc(a.model), asc(a.endpointId), asc(a.providerName), ...(q.byWorkspace ? [asc(a.workspaceId)] : []))
        .all();
    },
  };
}
