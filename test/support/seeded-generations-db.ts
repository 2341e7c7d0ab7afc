// A store seeded with many generations, in either dialect, for the query-plan tests: the hooks that
// build and drop it (call inside a describe), the drizzle handle to build the store's own queries
// with, and each dialect's EXPLAIN read as plain data.
import { Database } from "bun:sqlite";
import { afterAll, beforeAll } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { SQL } from "bun";
import { drizzle as drizzlePg } from "drizzle-orm/bun-sql";
import { drizzle as drizzleSqlite } from "drizzle-orm/bun-sqlite";
import { createPgStore } from "../../src/store/pg";
import { createSqliteStore } from "../../src/store/sqlite";
import type { Store } from "../../src/store/store";
import { tempDir } from "./gateway";
import { createTestDatabase } from "./postgres";
import { seedPostgresGenerations, seedSqliteGenerations } from "./seed-generations";

/** what a drizzle query builder gives for EXPLAIN */
export type SqlQuery = { toSQL(): { sql: string; params: unknown[] } };
export type PgPlanNode = { "Node Type": string; "Relation Name"?: string; "Index Name"?: string; Plans?: PgPlanNode[] };

export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - started };
}

export type SeededSqlite = {
  store(): Store;
  sqlite(): Database;
  db(): ReturnType<typeof drizzleSqlite>;
  /** EXPLAIN QUERY PLAN's detail lines */
  plan(query: SqlQuery): string[];
};

export function seededSqlite(rows: number, now: number): SeededSqlite {
  const dir = tempDir();
  const path = join(dir, "gateway.db");
  let store: Store;
  let sqlite: Database;
  beforeAll(() => {
    store = createSqliteStore(path);
    sqlite = new Database(path);
    seedSqliteGenerations(sqlite, rows, now);
  });
  afterAll(async () => {
    sqlite.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    store: () => store,
    sqlite: () => sqlite,
    db: () => drizzleSqlite(sqlite),
    plan(query) {
      const { sql, params } = query.toSQL();
      return sqlite
        .query(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...(params as never[]))
        .map((r) => (r as { detail: string }).detail);
    },
  };
}

export type SeededPostgres = {
  store(): Store;
  db(): ReturnType<typeof drizzlePg>;
  /** EXPLAIN (FORMAT JSON)'s nodes, depth first */
  plan(query: SqlQuery): Promise<PgPlanNode[]>;
};

const planNodes = (node: PgPlanNode): PgPlanNode[] => [node, ...(node.Plans ?? []).flatMap(planNodes)];

export const describePlanNodes = (nodes: PgPlanNode[]): string =>
  nodes
    .map((n) => `${n["Node Type"]}${n["Relation Name"] ? ` on ${n["Relation Name"]}` : ""}${n["Index Name"] ? ` using ${n["Index Name"]}` : ""}`)
    .join(" > ");

export function seededPostgres(rows: number, now: number): SeededPostgres {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let store: Store;
  let sql: SQL;
  beforeAll(async () => {
    database = await createTestDatabase();
    store = await createPgStore(database.url, { poolSize: 4 });
    sql = new SQL(database.url, { max: 2 });
    await seedPostgresGenerations(sql, rows, now);
  }, 120_000);
  afterAll(async () => {
    await sql?.close();
    await store?.close();
    await database?.drop();
  });
  return {
    store: () => store,
    db: () => drizzlePg({ client: sql }),
    async plan(query) {
      const { sql: text, params } = query.toSQL();
      const [row] = (await sql.unsafe(`EXPLAIN (FORMAT JSON) ${text}`, params as never[])) as Array<{ "QUERY PLAN": Array<{ Plan: PgPlanNode }> }>;
      return planNodes(row!["QUERY PLAN"][0]!.Plan);
    },
  };
}
