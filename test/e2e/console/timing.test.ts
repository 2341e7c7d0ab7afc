// Every console route a page loads answers in well under a second with 100,000 generations in
// the database (SQLite; the query plans of both dialects are in test/store/console-query-plan).

import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { createSqliteStore } from "../../../src/store/sqlite";
import { tempDir } from "../../support/gateway";
import { seedSqliteGenerations } from "../../support/seed-generations";
import { type ConsoleGateway, startConsoleGateway } from "./harness";

let cg: ConsoleGateway;

beforeAll(async () => {
  const dir = tempDir();
  const store = createSqliteStore(join(dir, "gateway.db"));
  await store.close();
  const sqlite = new Database(join(dir, "gateway.db"));
  seedSqliteGenerations(sqlite, 100_000, Date.now());
  sqlite.close();
  cg = await startConsoleGateway({ dir });
}, 60_000);
afterAll(() => cg.close());

test("each page's calls answer in under a second, as the owner and as a member", async () => {
  const pages = [
    "/console",
    "/console/api/me",
    "/console/api/overview",
    "/console/api/keys",
    "/console/api/generations?limit=50",
    "/console/api/generations?limit=50&model=m-3&status=error",
    "/console/api/generations/gen-00000001",
    "/console/api/models",
    "/console/api/workspaces",
    "/console/api/byok",
    "/console/api/destinations",
    "/console/api/destination-types",
    "/console/api/jobs?state=dead",
  ];
  const figures: string[] = [];
  for (const path of pages) {
    const started = performance.now();
    const res = await cg.call("owner", "GET", path);
    await res.arrayBuffer();
    const ms = performance.now() - started;
    expect({ path, status: res.status }).toEqual({ path, status: 200 });
    expect(ms).toBeLessThan(1000);
    figures.push(`${path}: ${ms.toFixed(1)} ms`);
  }
  for (const path of [`/console/api/overview`, `/console/api/generations?limit=50&workspace_id=${cg.team}`]) {
    const started = performance.now();
    const res = await cg.call("member", "GET", path);
    await res.arrayBuffer();
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(1000);
    figures.push(`member ${path}: ${(performance.now() - started).toFixed(1)} ms`);
  }
  console.log(figures.join("\n"));
}, 60_000);
