// The console's generation log and overview queries on a 100,000-generation database, in both
// dialects: each is answered through an index (SQLite: SEARCH, or an ordered index walk that
// LIMIT stops; PostgreSQL: no Seq Scan on generations or activity_daily), and the store answers
// each in well under a second.

import { describe, expect, test } from "bun:test";
import { dayKey } from "../../src/billing/windows";
import { rollupQuery as pgRollupQuery } from "../../src/store/pg/activity";
import { generationListQuery as pgListQuery } from "../../src/store/pg/generations";
import { rollupQuery as sqliteRollupQuery } from "../../src/store/sqlite/activity";
import { generationListQuery as sqliteListQuery } from "../../src/store/sqlite/generations";
import type { GenerationCursor, GenerationFilter, RollupQuery } from "../../src/store/store";
import { describePostgres } from "../support/postgres";
import { SEED_SPACING_MS } from "../support/seed-generations";
import { describePlanNodes, seededPostgres, seededSqlite, timed } from "../support/seeded-generations-db";

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
  // flagged generations are one in 500 of the seeded ones
  ["flagged", { flagged: true }, null],
  ["workspace and flagged", { workspaceId: "ws-1", flagged: true }, null],
  ["key and flagged", { keyHash: "key-7", flagged: true }, null],
  ["model and flagged", { model: "m-3", flagged: true }, null],
  ["provider, status and flagged", { provider: "p-3", status: "success", flagged: true }, null],
  ["time range and flagged", { from: NOW - 40 * DAY, to: NOW - 20 * DAY, flagged: true }, null],
  ["workspace and flagged, second page", { workspaceId: "ws-1", flagged: true }, { createdAt: NOW - 5000 * SEED_SPACING_MS, id: "gen-00005000" }],
];

const today = dayKey(NOW);
const ROLLUPS: Array<[string, RollupQuery]> = [
  ["today", { from: today, to: today, by: "all" }],
  ["30 days by day", { from: dayKey(NOW - 29 * DAY), to: today, by: "day" }],
  ["top models", { from: dayKey(NOW - 29 * DAY), to: today, by: "model", top: 5 }],
  ["top keys of two workspaces", { from: dayKey(NOW - 29 * DAY), to: today, by: "key", top: 5, workspaceIds: ["ws-0", "ws-1"] }],
];

const FILTERED = (f: GenerationFilter) => Object.keys(f).length > 0;

describe("sqlite: console queries on 100,000 generations", () => {
  const seeded = seededSqlite(ROWS, NOW);
  const store = () => seeded.store();

  test("seeded", () => {
    expect(seeded.sqlite().query("select count(*) as n from generations").get()).toEqual({ n: ROWS });
  });

  for (const [name, filter, before] of LISTINGS) {
    test(`log, ${name}: read through an index`, async () => {
      const lines = seeded.plan(sqliteListQuery(seeded.db(), filter, before, 51));
      const onGenerations = lines.filter((l) => / generations\b/.test(l));
      expect(onGenerations.length).toBeGreaterThan(0);
      // a full scan reads "SCAN generations" with no index after it
      for (const line of onGenerations) expect(line).toMatch(/USING (COVERING )?INDEX|USING INTEGER PRIMARY KEY/);
      // the flagged filter may walk its partial index, which holds the flagged generations only
      const searched = (l: string) => l.startsWith("SEARCH generations USING") || (filter.flagged === true && l.includes("INDEX generations_flagged_time"));
      if (FILTERED(filter)) expect(onGenerations.some(searched)).toBe(true);
      const { value, ms } = await timed(() => store().generations.list(filter, before, 51));
      expect(value.length).toBeGreaterThan(0);
      expect(ms).toBeLessThan(1000);
      console.log(`sqlite log ${name}: ${ms.toFixed(1)} ms; ${onGenerations.join(" | ")}`);
    });
  }

  for (const [name, query] of ROLLUPS) {
    test(`overview, ${name}: the activity counters by their day range`, async () => {
      const lines = seeded.plan(sqliteRollupQuery(seeded.db(), query));
      expect(lines.some((l) => /^SEARCH activity_daily USING (COVERING )?INDEX \S+ \(day>\? AND day<\?\)/.test(l))).toBe(true);
      expect(lines.join("\n")).not.toMatch(/generations/);
      const { value, ms } = await timed(() => store().activity.rollup(query));
      expect(value.length).toBeGreaterThan(0);
      expect(ms).toBeLessThan(1000);
      console.log(`sqlite overview ${name}: ${ms.toFixed(1)} ms; ${lines.join(" | ")}`);
    });
  }

  test("the rollup sums what the log holds", async () => {
    const [all] = await store().activity.rollup({ from: "2000-01-01", to: "2100-01-01", by: "all" });
    expect(all!.requests).toBe(ROWS);
    const [ws1] = await store().activity.rollup({ from: "2000-01-01", to: "2100-01-01", by: "all", workspaceIds: ["ws-1"] });
    expect(ws1!.requests).toBe(33_334);
  });
});

describePostgres("postgres: console queries on 100,000 generations", () => {
  const seeded = seededPostgres(ROWS, NOW);
  const store = () => seeded.store();

  for (const [name, filter, before] of LISTINGS) {
    test(`log, ${name}: read through an index`, async () => {
      const nodes = await seeded.plan(pgListQuery(seeded.db(), filter, before, 51));
      expect(nodes.filter((n) => n["Node Type"] === "Seq Scan" && n["Relation Name"] === "generations")).toEqual([]);
      expect(nodes.some((n) => /Index/.test(n["Node Type"]) && (n["Relation Name"] === "generations" || n["Index Name"]?.startsWith("generations_")))).toBe(
        true,
      );
      const { value, ms } = await timed(() => store().generations.list(filter, before, 51));
      expect(value.length).toBeGreaterThan(0);
      expect(ms).toBeLessThan(1000);
      console.log(`postgres log ${name}: ${ms.toFixed(1)} ms; ${describePlanNodes(nodes)}`);
    });
  }

  for (const [name, query] of ROLLUPS) {
    test(`overview, ${name}: the activity counters by their day range`, async () => {
      const nodes = await seeded.plan(pgRollupQuery(seeded.db(), query));
      expect(nodes.filter((n) => n["Node Type"] === "Seq Scan")).toEqual([]);
      expect(
        nodes.some((n) => /Index/.test(n["Node Type"]) && (n["Relation Name"] === "activity_daily" || n["Index Name"]?.startsWith("activity_daily_"))),
      ).toBe(true);
      const { value, ms } = await timed(() => store().activity.rollup(query));
      expect(value.length).toBeGreaterThan(0);
      expect(ms).toBeLessThan(1000);
      console.log(`postgres overview ${name}: ${ms.toFixed(1)} ms; ${describePlanNodes(nodes)}`);
    });
  }
});
