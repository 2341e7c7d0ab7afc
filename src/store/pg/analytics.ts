import { type SQL, sql } from "drizzle-orm";
import type { AnalyticsStore, BudgetAlertRecord, BudgetAlertStore, RefusalStore } from "../analytics-store";
import { analyticsQueries, counterRow, refusalQueries } from "../queries/analytics";
import { type Conn, type Db, lockedTransaction } from "./client";
import { order } from "./order";
import { analyticsHourly, budgetAlerts, refusalsHourly, refusedRequests } from "./schema";

const qa = analyticsQueries(analyticsHourly);
const qr = refusalQueries(refusedRequests, refusalsHourly, order);

/** The analytics counters summed by what the query groups by (exported for the query-plan test). */
export function analyticsQuery(db: Db, q: Parameters<AnalyticsStore["query"]>[0]) {
  const select: Record<string, SQL> = {};
  const groups: SQL[] = [];
  if (q.bucket !== null) {
    select.bucket = qa.bucket(q.bucket).mapWith(Number);
    groups.push(qa.bucket(q.bucket));
  }
  for (const g of q.groupBy) {
    select[`g_${g}`] = sql`${qa.column(g)}`;
    groups.push(sql`${qa.column(g)}`);
  }
  // sums of int8 arrive as numeric strings
  for (const s of q.sums) select[`s_${s}`] = sql`coalesce(sum(${qa.column(s)}), 0)`.mapWith(Number);
  const query = db.select(select).from(analyticsHourly).where(qa.where(q));
  return (groups.length > 0 ? query.groupBy(...groups) : query).limit(q.maxGroups);
}

export function pgAnalyticsStore({ db }: Conn): AnalyticsStore {
  return {
    async query(q) {
      return (await analyticsQuery(db, q)).map((row) => counterRow(row, q));
    },
  };
}

export function pgRefusalStore(conn: Conn): RefusalStore {
  const { db } = conn;
  return {
    async record(rows, counters) {
      if (counters.length === 0) return;
      await lockedTransaction(conn, async (tx) => {
        if (rows.length > 0)
          await tx
            .insert(refusedRequests)
            .values([...rows])
            .onConflictDoNothing();
        await tx
          .insert(refusalsHourly)
          .values([...counters])
          .onConflictDoUpdate({
            target: [refusalsHourly.hour, refusalsHourly.workspaceId, refusalsHourly.keyHash, refusalsHourly.status],
            set: { requests: sql`${refusalsHourly.requests} + excluded.requests` },
          });
      });
    },
    async list(filter, before, limit) {
      return db
        .select()
        .from(refusedRequests)
        .where(qr.listed(filter, before))
        .orderBy(...qr.listOrder)
        .limit(limit);
    },
    async counts(q) {
      return db
        .select({
          keyHash: refusalsHourly.keyHash,
          workspaceId: refusalsHourly.workspaceId,
          status: refusalsHourly.status,
          requests: sql<number>`sum(${refusalsHourly.requests})`.mapWith(Number),
        })
        .from(refusalsHourly)
        .where(qr.counted(q))
        .groupBy(refusalsHourly.keyHash, refusalsHourly.workspaceId, refusalsHourly.status);
    },
    async purge(before) {
      const rows = await db.delete(refusedRequests).where(qr.purged(before)).returning({ id: refusedRequests.id });
      return rows.length;
    },
  };
}

export function pgBudgetAlertStore({ db }: Conn): BudgetAlertStore {
  return {
    async claim(alert) {
      const rows = await db.insert(budgetAlerts).values(alert).onConflictDoNothing().returning({ scope: budgetAlerts.scope });
      return rows.length === 1;
    },
    async recent(since, limit) {
      return (await db
        .select()
        .from(budgetAlerts)
        .where(sql`${budgetAlerts.createdAt} >= ${since}`)
        .orderBy(sql`${budgetAlerts.createdAt} desc`)
        .limit(limit)) as BudgetAlertRecord[];
    },
  };
}
