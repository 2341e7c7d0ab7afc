// The console's generation log and overview queries on a 100,000-generation database, in both
// dialects: each is answered through an index (SQLite: SEARCH, or an ordered index walk that
// LIMIT stops; PostgreSQL: no Seq Scan on generations or activity_daily), and the store answers
// each in well under a second.

import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { SQL } from "bun";
import { drizzle as drizzlePg } from "drizzle-orm/bun-sql";
import { drizzle as drizzleSqlite } from "drizzle-orm/bun-sqlite";
import { dayKey } from "../../src/billing/windows";
import { createPgStore } from "../../src/store/pg";
import { rollupQuery as pgRollupQuery } from "../../src/store/pg/activity";
import { generationListQuery as pgListQuery } from "../../src/store/pg/generations";
import * as pgSchema from "../../src/store/pg/schema";
import { createSqliteStore } from "../../src/store/sqlite";
import { rollupQuery as sqliteRollupQuery } from "../../src/store/sqlite/activity";
import { generationListQuery as sqliteListQuery } from "../../src/store/sqlite/generations";
import * as sqliteSchema from "../../src/store/sqlite/schema";
import type { GenerationCursor, GenerationFilter, RollupQuery, Store } from "../../src/store/store";
import { tempDir } from "../support/gateway";
import { createTestDatabase, describePostgres } from "../support/postgres";
import { SEED_SPACING_MS, seedPostgresGenerations, seedSqliteGenerations } from "../support/seed-generations";

const ROWS = 100_000;
const NOW = Date.UTC(2030, 0, 15, 12);
const DAY = 86_400_000;

/** every filter the console's log offers, alone and combined, and a later page */
const LISTINGS: Array<[string, GenerationFilter, GenerationCursor | null]> = [
  ["no filter", {}, null],
  ["workspace", { workspaceId: "ws-1" }, null],
  ["key", { keyHash: "key-7" }, null],
  ["model", { model: "m-3" }, null],
  ["provider", { provider: "p-2" }, null],
  ["status error", { status: "error" }, null],
  ["status cancelled", { status: "cancelled" }, null],
  ["status success", { status: "success" }, null],
  ["time range", { from: NOW - 20 * DAY, to: NOW - 19 * DAY }, null],
  ["workspace and model", { workspaceId: "ws-2", model: "m-5" }, null],
  ["key and status", { keyHash: "key-0", status: "error" }, null],
  ["workspace, second page", { workspaceId: "ws-1" }, { createdAt: NOW - 5000 * SEED_SPACING_MS, id: "gen-00005000" }],
];

const today = dayKey(NOW);
const ROLLUPS: Array<[string, RollupQuery]> = [
  ["today", { from: today, to: today, by: "all" }],
  ["30 days by day", { from: dayKey(NOW - 29 * DAY), to: today, by: "day" }],
  ["top models", { from: dayKey(NOW - 29 * DAY), to: today, by: "model", top: 5 }],
  ["top keys of two workspaces", { from: dayKey(NOW - 29 * DAY), to: today, by: "key", top: 5, workspaceIds: ["ws-0", "ws-1"] }],
];

const FILTERED = (f: GenerationFilter) => Object.keys(f).length > 0;

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - started };
}

describe("sqlite: console queries on 100,000 generations", () => {
  const dir = tempDir();
  const path = join(dir, "gateway.db");
  let store: Store;
  let sqlite: Database;
  beforeAll(() => {
    store = createSqliteStore(path);
    sqlite = new Database(path);
    seedSqliteGenerations(sqlite, ROWS, NOW);
  });
  afterAll(async () => {
    sqlite.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const db = () => drizzleSqlite(sqlite, { schema: sqliteSchema });
  const plan = (q: { toSQL(): { sql: string; params: unknown[] } }) => {
    const { sql, params } = q.toSQL();
    return sqlite
      .query(`EXPLAIN QUERY PLAN ${sql}`)
      .all(...(params as never[]))
      .map((r) => (r as { detail: string }).detail);
  };

  test("seeded", () => {
    expect(sqlite.query("select count(*) as n from generations").get()).toEqual({ n: ROWS });
  });

  for (const [name, filter, before] of LISTINGS) {
    test(`log, ${name}: read through an index`, async () => {
      const lines = plan(sqliteListQuery(db(), filter, before, 51));
      const onGenerations = lines.filter((l) => / generations\b/.test(l));
      expect(onGenerations.length).toBeGreaterThan(0);
      // a full scan reads "SCAN generations" with no index after it
      for (const line of onGenerations) expect(line).toMatch(/USING (COVERING )?INDEX|USING INTEGER PRIMARY KEY/);
      if (FILTERED(filter)) expect(onGenerations.some((l) => l.startsWith("SEARCH generations USING"))).toBe(true);
      const { value, ms } = await timed(() => store.generations.list(filter, before, 51));
      expect(value.length).toBeGreaterThan(0);
      expect(ms).toBeLessThan(1000);
      console.log(`sqlite log ${name}: ${ms.toFixed(1)} ms; ${onGenerations.join(" | ")}`);
    });
  }

  for (const [name, query] of ROLLUPS) {
    test(`overview, ${name}: the activity counters by their day range`, async () => {
      const lines = plan(sqliteRollupQuery(db(), query));
      expect(lines.some((l) => /^SEARCH activity_daily USING (COVERING )?INDEX \S+ \(day>\? AND day<\?\)/.test(l))).toBe(true);
      expect(lines.join("\n")).not.toMatch(/generations/);
      const { value, ms } = await timed(() => store.activity.rollup(query));
      expect(value.length).toBeGreaterThan(0);
      expect(ms).toBeLessThan(1000);
      console.log(`sqlite overview ${name}: ${ms.toFixed(1)} ms; ${lines.join(" | ")}`);
    });
  }

  test("the rollup sums what the log holds", async () => {
    const [all] = await store.activity.rollup({ from: "2000-01-01", to: "2100-01-01", by: "all" });
    expect(all!.requests).toBe(ROWS);
    const [ws1] = await store.activity.rollup({ from: "2000-01-01", to: "2100-01-01", by: "all", workspaceIds: ["ws-1"] });
    expect(ws1!.requests).toBe(33_334);
  });
});

type PgPlanNode = { "Node Type": string; "Relation Name"?: string; "Index Name"?: string; Plans?: PgPlanNode[] };

function planNodes(node: PgPlanNode): PgPlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(planNodes)];
}

describePostgres("postgres: console queries on 100,000 generations", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let store: Store;
  let sql: SQL;
  beforeAll(async () => {
    database = await createTestDatabase();
    store = await createPgStore(database.url, { poolSize: 4 });
    sql = new SQL(database.url, { max: 2 });
    await seedPostgresGenerations(sql, ROWS, NOW);
  }, 120_000);
  afterAll(async () => {
    await sql?.close();
    await store?.close();
    await database?.drop();
  });
  const db = () => drizzlePg({ client: sql, schema: pgSchema });
  const plan = async (q: { toSQL(): { sql: string; params: unknown[] } }) => {
    const { sql: text, params } = q.toSQL();
    const [row] = (await sql.unsafe(`EXPLAIN (FORMAT JSON) ${text}`, params as never[])) as Array<{ "QUERY PLAN": Array<{ Plan: PgPlanNode }> }>;
    return planNodes(row!["QUERY PLAN"][0]!.Plan);
  };
  const describeNodes = (nodes: PgPlanNode[]) =>
    nodes
      .map((n) => `${n["Node Type"]}${n["Relation Name"] ? ` on ${n["Relation Name"]}` : ""}${n["Index Name"] ? ` using ${n["Index Name"]}` : ""}`)
      .join(" > ");

  for (const [name, filter, before] of LISTINGS) {
    test(`log, ${name}: read through an index`, async () => {
      const nodes = await plan(pgListQuery(db(), filter, before, 51));
      expect(nodes.filter((n) => n["Node Type"] === "Seq Scan" && n["Relation Name"] === "generations")).toEqual([]);
      expect(nodes.some((n) => /Index/.test(n["Node Type"]) && (n["Relation Name"] === "generations" || n["Index Name"]?.startsWith("generations_")))).toBe(
        true,
      );
      const { value, ms } = await timed(() => store.generations.list(filter, before, 51));
      expect(value.length).toBeGreaterThan(0);
      expect(ms).toBeLessThan(1000);
      console.log(`postgres log ${name}: ${ms.toFixed(1)} ms; ${describeNodes(nodes)}`);
    });
  }

  for (const [name, query] of ROLLUPS) {
    test(`overview, ${name}: the activity counters by their day range`, async () => {
      const nodes = await plan(pgRollupQuery(db(), query));
      expect(nodes.filter((n) => n["Node Type"] === "Seq Scan")).toEqual([]);
      expect(
        nodes.some((n) => /Index/.test(n["Node Type"]) && (n["Relation Name"] === "activity_daily" || n["Index Name"]?.startsWith("activity_daily_"))),
      ).toBe(true);
      const { value, ms } = await timed(() => store.activity.rollup(query));
      expect(value.length).toBeGreaterThan(0);
      expect(ms).toBeLessThan(1000);
      console.log(`postgres overview ${name}: ${ms.toFixed(1)} ms; ${describeNodes(nodes)}`);
    });
  }
});
