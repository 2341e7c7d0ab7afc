// `gateway jobs list [--dead]`, `gateway jobs retry ID` and `gateway worker` as a process.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { createSqliteStore } from "../../../src/store/sqlite";
import type { Store } from "../../../src/store/store";
import { tempDir } from "../../support/gateway";

let dir: string;
let env: Record<string, string>;
let store: Store;

function run(args: string[]) {
  const proc = Bun.spawnSync(["bun", "src/main.ts", ...args], { env: { ...process.env, LOG_LEVEL: "error", GATEWAY_CONFIG: "", ...env } });
  return { code: proc.exitCode, stdout: proc.stdout.toString(), stderr: proc.stderr.toString() };
}
const lines = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

beforeAll(async () => {
  dir = tempDir("gw-jobs-cli-");
  env = { DATABASE_URL: `file:${join(dir, "g.db")}` };
  store = createSqliteStore(join(dir, "g.db"));
  const at = Date.parse("2026-01-02T03:04:05Z");
  for (const id of ["a", "b", "c"]) await store.jobs.enqueue({ id, kind: "webhook.deliver", payload: { to: id }, runAt: at, now: at });
  await store.jobs.lease({ owner: "w", now: at, leaseMs: 1000, limit: 2, kinds: ["webhook.deliver"] });
  await store.jobs.fail("a", "w", { error: "HTTP 410", now: at + 1, retryAt: null });
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("gateway jobs", () => {
  test("list --dead prints the dead jobs, one JSON object per line, as the API shows them", () => {
    const dead = run(["jobs", "list", "--dead"]);
    expect(dead.code).toBe(0);
    expect(lines(dead.stdout)).toEqual([
      {
        id: "a",
        kind: "webhook.deliver",
        key: null,
        payload: { to: "a" },
        state: "dead",
        run_at: "2026-01-02T03:04:05.000Z",
        attempts: 1,
        lease_owner: null,
        lease_expires_at: null,
        last_error: "HTTP 410",
        created_at: "2026-01-02T03:04:05.000Z",
        updated_at: "2026-01-02T03:04:05.001Z",
      },
    ]);
    expect(lines(run(["jobs", "list"]).stdout).map((j) => j.id)).toEqual(["c", "b", "a"]);
    expect(lines(run(["jobs", "list", "--state", "pending"]).stdout).map((j) => j.id)).toEqual(["c"]);
  });

  test("retry ID makes a dead job pending; a job that is not dead, or unknown, is refused with exit code 2", async () => {
    const retried = run(["jobs", "retry", "a"]);
    expect(retried.code).toBe(0);
    expect(lines(retried.stdout)[0]).toMatchObject({ id: "a", state: "pending", attempts: 0, last_error: "HTTP 410" });
    expect((await store.jobs.get("a"))?.state).toBe("pending");
    const again = run(["jobs", "retry", "a"]);
    expect([again.code, again.stderr.trim()]).toEqual([2, "Job 'a' is pending; only dead jobs can be retried"]);
    const unknown = run(["jobs", "retry", "zzz"]);
    expect([unknown.code, unknown.stderr.trim()]).toEqual([2, "Job 'zzz' not found"]);
    const bad = run(["jobs", "list", "--state", "exploded"]);
    expect([bad.code, bad.stderr.trim()]).toEqual([2, '--state: expected one of pending, running, done, dead (got "exploded")']);
  });
});

test("gateway worker: runs the job workers without HTTP, and stops at SIGTERM", async () => {
  const wdir = tempDir("gw-worker-cmd-");
  try {
    const proc = Bun.spawn(["bun", "src/main.ts", "worker"], {
      env: { ...process.env, LOG_LEVEL: "error", GATEWAY_CONFIG: "", DATABASE_URL: `file:${join(wdir, "g.db")}`, WORKERS: "2" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const reader = proc.stdout.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toBe("job workers running: 2\n");
    const db = createSqliteStore(join(wdir, "g.db"), { migrate: false });
    // the recurring maintenance jobs ran on the workers
    let stats = await db.jobs.stats(Date.now());
    for (let i = 0; stats.outcomes.length < 6 && i < 200; i++, stats = await db.jobs.stats(Date.now())) await Bun.sleep(10);
    expect(stats.outcomes).toEqual([
      { kind: "audit.purge", outcome: "succeeded", count: 1 },
      { kind: "generation_contents.purge", outcome: "succeeded", count: 1 },
      { kind: "jobs.purge", outcome: "succeeded", count: 1 },
      { kind: "refused_requests.purge", outcome: "succeeded", count: 1 },
      { kind: "response_cache.purge", outcome: "succeeded", count: 1 },
      { kind: "responses.purge", outcome: "succeeded", count: 1 },
    ]);
    await db.close();
    const stopping = Date.now();
    proc.kill("SIGTERM");
    expect(await proc.exited).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(3000);
  } finally {
    rmSync(wdir, { recursive: true, force: true });
  }
});
