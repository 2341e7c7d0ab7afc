// SIGKILL of a gateway whose worker holds leased jobs, on SQLite and on PostgreSQL: after a
// restart every job completes (at least once), within about a lease of the restart; counted by
// distinct job (the application's idempotent view), none is missing.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { createPgStore } from "../../../src/store/pg";
import { createSqliteStore } from "../../../src/store/sqlite";
import type { Store } from "../../../src/store/store";
import { tempDir } from "../../support/gateway";
import { startGatewayProcess } from "../../support/gateway-process";
import { startJobReceiver } from "../../support/job-receiver";
import { createTestDatabase, describePostgres } from "../../support/postgres";

const ENTRY = ["bun", "test/support/gateway-entry.ts", "job-kinds.ts"];
const JOBS = 24;
const YAML = "jobs:\n  lease_seconds: 1\n  poll_seconds: 0.1\n  concurrency: 4\n  backoff_seconds: [0.05]\n";

async function killWithLeasedJobs(env: Record<string, string>, openStore: () => Promise<Store>): Promise<void> {
  const receiver = startJobReceiver();
  const store = await openStore();
  try {
    let gw = await startGatewayProcess(env, ENTRY);
    const now = Date.now();
    for (let i = 0; i < JOBS; i++)
      await store.jobs.enqueue({ id: `job-${i}`, kind: "test.call", payload: { url: receiver.url, workMs: 300 }, runAt: now, now });
    for (let i = 0; receiver.active() < 4 && i < 400; i++) await Bun.sleep(10);
    await gw.kill();
    const inFlight = [...receiver.starts.keys()].filter((id) => !receiver.done.has(id));
    const leased = await store.jobs.count({ state: "running" });
    const restarted = Date.now();
    gw = await startGatewayProcess(env, ENTRY);
    for (let i = 0; (await store.jobs.count({ state: "done" })) < JOBS && i < 1000; i++) await Bun.sleep(20);
    const allDoneAfter = Date.now() - restarted;
    await gw.stop();
    const reRun = inFlight.filter((id) => (receiver.starts.get(id)?.length ?? 0) > 1).length;
    const completedTwice = [...receiver.done.values()].filter((n) => n > 1).length;
    console.log(
      `sigkill jobs (${store.dialect}): ${leased} leased and ${inFlight.length} in flight at the kill, ${reRun} of them run again; every job done ${allDoneAfter} ms after the restart; ${completedTwice} completed twice`,
    );
    expect(leased).toBeGreaterThanOrEqual(4);
    expect(inFlight.length).toBeGreaterThanOrEqual(1);
    expect(reRun).toBe(inFlight.length);
    expect(await store.jobs.count({ state: "done" })).toBe(JOBS);
    expect(receiver.done.size).toBe(JOBS);
    // the dead process's leases end a second after their last renewal; the rerun takes 300 ms per four jobs
    expect(allDoneAfter).toBeLessThan(15_000);
  } finally {
    await store.close();
    receiver.stop();
  }
}

test("sqlite: jobs leased by a killed gateway all complete after the restart", async () => {
  const dir = tempDir("gw-sigkill-jobs-");
  await Bun.write(join(dir, "gateway.yaml"), YAML);
  const env = { DATABASE_URL: `file:${join(dir, "g.db")}`, GATEWAY_CONFIG: join(dir, "gateway.yaml"), WORKERS: "1" };
  try {
    await killWithLeasedJobs(env, async () => {
      // the gateway creates and migrates the file; this connection only enqueues and reads
      const first = await startGatewayProcess(env, ENTRY);
      await first.stop();
      return createSqliteStore(join(dir, "g.db"), { migrate: false });
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);

describePostgres("postgres", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let dir: string;
  beforeAll(async () => {
    db = await createTestDatabase();
    dir = tempDir("gw-sigkill-jobs-pg-");
    await Bun.write(join(dir, "gateway.yaml"), YAML);
  });
  afterAll(async () => {
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  test("jobs leased by a killed gateway all complete after the restart", async () => {
    const env = { DATABASE_URL: db.url, GATEWAY_SECRET_KEY: "0".repeat(64), GATEWAY_CONFIG: join(dir, "gateway.yaml"), WORKERS: "1" };
    await killWithLeasedJobs(env, () => createPgStore(db.url, { poolSize: 2 }));
  }, 60_000);
});
