import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFileSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { createInferenceKey, startTestGateway, type TestGateway, tempDir } from "../support/gateway";
import { type MockUpstream, startMockUpstream } from "../support/mock-upstream";

let up: MockUpstream;
let gw: TestGateway;
const yaml = () =>
  `providers:\n  - { slug: mock, api: openai-chat, base_url: "${up.url}" }\nmodels:\n  - id: t/m\n    endpoints: [{ provider: mock, model: m, pricing: { prompt: "0.000001", completion: "0.000002" } }]\n`;
const env = { GATEWAY_DEFAULT_CATALOG: "false" };

beforeAll(async () => {
  up = await startMockUpstream();
  gw = await startTestGateway({ yaml: yaml(), env });
});
afterAll(async () => {
  await gw.close();
  await up.stop();
});

function backup(path: string, databaseUrl = `file:${join(gw.dir, "gateway.db")}`) {
  return Bun.spawn(["bun", "src/main.ts", "backup", path], {
    env: { ...process.env, DATABASE_URL: databaseUrl, GATEWAY_SECRET_KEY: "", LOG_LEVEL: "error" },
    stdout: "pipe",
    stderr: "pipe",
  });
}

test("gateway backup copies the database consistently while the gateway writes, and the master key beside it", async () => {
  // the provider has no key of its own: only the workspace's BYOK credential, sealed by the master key, serves it
  expect((await gw.api("/api/v1/byok", { method: "POST", json: { provider: "mock", key: "byok-secret-123", name: "team" } })).status).toBe(201);
  const { key, hash } = await createInferenceKey(gw, { limit: 100 });
  const chat = () => gw.api("/api/v1/chat/completions", { method: "POST", key, json: { model: "t/m", messages: [{ role: "user", content: "hi" }] } });

  const dest = join(tempDir(), "nested", "backup.db");
  const serve = async (n: number) => {
    const batch = await Promise.all(Array.from({ length: n }, chat));
    for (const res of batch) expect(res.status).toBe(200);
    return batch.length;
  };
  let served = await serve(12);
  const running = backup(dest);
  // the gateway keeps committing generations for as long as the backup runs
  while (running.exitCode === null) served += await serve(4);
  expect(await running.exited).toBe(0);
  expect((await new Response(running.stdout).text()).trim().split("\n")).toEqual([
    `database: ${dest}`,
    `master key: ${dest}.master.key (restore it as master.key beside the database, or BYOK secrets cannot be opened)`,
  ]);
  expect(statSync(dest).mode & 0o777).toBe(0o600);
  expect(statSync(`${dest}.master.key`).mode & 0o777).toBe(0o600);
  expect(readFileSync(`${dest}.master.key`, "utf8")).toBe(readFileSync(join(gw.dir, "master.key"), "utf8"));

  const copy = new Database(dest, { readonly: true });
  try {
    expect(copy.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
    const generations = copy.query("SELECT count(*) AS n, coalesce(sum(cost_nanos), 0) AS cost FROM generations WHERE key_hash = ?").get(hash) as {
      n: number;
      cost: number;
    };
    // the copy is one instant of a database that kept changing: at least what came before it, not everything after
    expect(generations.n).toBeGreaterThanOrEqual(12);
    expect(generations.n).toBeLessThanOrEqual(served);
    // each generation and its spend commit together, so the copy holds both or neither
    const usage = copy.query("SELECT byok_total AS byok FROM key_usage WHERE hash = ?").get(hash) as { byok: number };
    expect(usage.byok).toBe(generations.cost);
    expect(generations.cost).toBe(generations.n * (10 * 1000 + 5 * 2000));
    expect((copy.query("SELECT count(*) AS n FROM api_keys WHERE hash = ?").get(hash) as { n: number }).n).toBe(1);
  } finally {
    copy.close();
  }

  // restored elsewhere with its key, the BYOK credential still opens and serves
  const restoredDir = tempDir();
  copyFileSync(dest, join(restoredDir, "gateway.db"));
  copyFileSync(`${dest}.master.key`, join(restoredDir, "master.key"));
  const restored = await startTestGateway({ dir: restoredDir, yaml: yaml(), env });
  try {
    const res = await restored.api("/api/v1/chat/completions", { method: "POST", key, json: { model: "t/m", messages: [{ role: "user", content: "again" }] } });
    expect(res.status).toBe(200);
    expect(up.requests.at(-1)!.headers.authorization).toBe("Bearer byok-secret-123");
  } finally {
    await restored.close();
  }
});

test("gateway backup refuses what it cannot do, naming why", async () => {
  const dir = tempDir();
  await Bun.write(join(dir, "taken.db"), "x");
  const taken = backup(join(dir, "taken.db"));
  expect(await taken.exited).toBe(2);
  expect((await new Response(taken.stderr).text()).trim()).toBe(`backup: ${join(dir, "taken.db")} already exists; a backup never overwrites a file`);
  const pg = Bun.spawnSync(["bun", "src/main.ts", "backup", join(dir, "x.db")], {
    env: { ...process.env, DATABASE_URL: "postgres://db/g", GATEWAY_SECRET_KEY: "0".repeat(64) },
  });
  expect(pg.exitCode).toBe(2);
  expect(pg.stderr.toString().trim()).toBe("backup: DATABASE_URL is PostgreSQL; back it up with pg_dump, and keep GATEWAY_SECRET_KEY with the dump");
  const none = Bun.spawnSync(["bun", "src/main.ts", "backup"], { env: { ...process.env, DATABASE_URL: `file:${join(dir, "g.db")}` } });
  expect(none.exitCode).toBe(2);
  expect(none.stderr.toString().trim()).toBe("backup: expected one destination file: gateway backup PATH");
});
