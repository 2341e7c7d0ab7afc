import type { Database } from "bun:sqlite";
import { type SQL, sql } from "drizzle-orm";
import type { AnalyticsStore, BudgetAlertStore, RefusalStore } from "../analytics-store";
import { analyticsQueries, counterRow, refusalQueries } from "../queries/analytics";
import type { Db, SqliteWriter, WriteStep } from "./client";
import { order } from "./order";
import { analyticsHourly, budgetAlerts, refusalsHourly, refusedRequests } from "./schema";

const qa = analyticsQueries(analyticsHourly);
const qr = refusalQueries(refusedRequests, refusalsHourly, order);

/** The analytics counters summed by what the query groups by (exported for the query-plan test). */
export function analyticsQuery(db: Db, q: Parameters<AnalyticsStore["query"]>[0]) {
  const select: Record<string, SQL> = {};
  const groups: SQL[] = [];
  if (q.bucket !== null) {
    select.bucket = qa.bucket(q.bucket);
    groups.push(qa.bucket(q.bucket));
  }
  for (const g of q.groupBy) {
    select[`g_${g}`] = sql`${qa.column(g)}`;
    groups.push(sql`${qa.column(g)}`);
  }
  for (const s of q.sums) select[`s_${s}`] = sql`coalesce(sum(${qa.column(s)}), 0)`;
  const query = db.select(select).from(analyticsHourly).where(qa.where(q));
  return (groups.length > 0 ? query.groupBy(...groups) : query).limit(q.maxGroups);
}

export function sqliteAnalyticsStore(db: Db): AnalyticsStore {
  return {
    async query(q) {
      return analyticsQuery(db, q)
        .all()
        .map((row) => counterRow(row, q));
    },
  };
}

export function sqliteRefusalStore(db: Db, sqlite: Database, write: WriteStep, writer: SqliteWriter): RefusalStore {
  // prepared once: a flood of refusals writes hundreds of rows a batch, and building each statement would cost more than running it
  const insert = sqlite.query(`INSERT INTO refused_requests (id, created_at, status, error_code, reason, method, route, model, key_hash, workspace_id, user_id)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) ON CONFLICT(id) DO NOTHING`);
  const count = sqlite.query(`INSERT INTO refusals_hourly (hour, workspace_id, key_hash, status, requests) VALUES (?1, ?2, ?3, ?4, ?5)
ON CONFLICT(hour, workspace_id, key_hash, status) DO UPDATE SET requests = requests + excluded.requests`);
  return {
    record: (rows, counters) =>
      write(() =>
        writer.atomic(() => {
          for (const r of rows) insert.run(r.id, r.createdAt, r.status, r.errorCode, r.reason, r.method, r.route, r.model, r.keyHash, r.workspaceId, r.userId);
          for (const c of counters) count.run(c.hour, c.workspaceId, c.keyHash, c.status, c.requests);
        }),
      ),
    async list(filter, before, limit) {
      return db
        .select()
        .from(refusedRequests)
        .where(qr.listed(filter, before))
        .orderBy(...qr.listOrder)
        .limit(limit)
        .all();
    },
    async counts(q) {
      return db
        .select({
          keyHash: refusalsHourly.keyHash,
          workspaceId: refusalsHourly.workspaceId,
          status: refusalsHourly.status,
          requests: sql<number>`sum(${refusalsHourly.requests})`,
        })
        .from(refusalsHourly)
        .where(qr.counted(q))
        .groupBy(refusalsHourly.keyHash, refusalsHourly.workspaceId, refusalsHourly.status)
        .all();
    },
    purge: (before) => write(() => db.delete(refusedRequests).where(qr.purged(before)).returning({ id: refusedRequests.id }).all().length),
  };
}

export function sqliteBudgetAlertStore(db: Db, write: WriteStep): BudgetAlertStore {
  return {
    claim: (alert) => write(() => db.insert(budgetAlerts).values(alert).onConflictDoNothing().returning().all().length === 1),
    async recent(since, limit) {
      return db
        .select()
        .from(budgetAlerts)
        .where(sql`${budgetAlerts.createdAt} >= ${since}`)
        .orderBy(sql`${budgetAlerts.createdAt} desc`)
        .limit(limit)
        .all() as Awaited<ReturnType<BudgetAlertStore["recent"]>>;
    },
  };
}
