// Two processes' worth of runners (two stores, two runners) draining one queue, on SQLite (one
// WAL file, two connections) and on PostgreSQL (two pools): every job runs, and no job ever runs
// twice at the same time; each handler counts itself in and out of a shared counter.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { jobRegistry } from "../../../src/jobs/registry";
import { JobRunner } from "../../../src/jobs/runner";
import { silentLogger } from "../../../src/logger";
import { createPgStore } from "../../../src/store/pg";
import { createSqliteStore } from "../../../src/store/sqlite";
import type { Store } from "../../../src/store/store";
import { tempDir } from "../../support/gateway";
import { createTestDatabase, describePostgres } from "../../support/postgres";

const JOBS = 300;

async function drain(stores: [Store, Store]): Promise<void> {
  const inProgress = new Map<string, number>();
  const runs = new Map<string, number>();
  const byRunner = [0, 0];
  let overlaps = 0;
  const runners = stores.map((store, i) => {
    const kind = {
      kind: "count",
      async run(_payload: unknown, { job }: { job: { id: string } }) {
        const n = (inProgress.get(job.id) ?? 0) + 1;
        inProgress.set(job.id, n);
        if (n > 1) overlaps++;
        byRunner[i]!++;
        await Bun.sleep(Math.floor(Math.random() * 3));
        inProgress.set(job.id, n - 1);
        runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
      },
    };
    return new JobRunner({
      store: store.jobs,
      registry: jobRegistry([kind]),
      owner: `runner-${i}`,
      leaseMs: 10_000,
      concurrency: 4,
      backoffMs: [10],
      pollMs: 20,
      logger: silentLogger,
      clock: Date.now,
    });
  });
  const now = Date.now();
  for (let i = 0; i < JOBS; i++) await stores[i % 2]!.jobs.enqueue({ id: `job-${String(i).padStart(3, "0")}`, kind: "count", payload: { i }, runAt: now, now });
  const started = Date.now();
  runners.forEach((r) => r.start());
  for (let waited = 0; runs.size < JOBS && waited < 20_000; waited += 10) await Bun.sleep(10);
  await Promise.all(runners.map((r) => r.stop(1000)));
  console.log(
    `shared queue (${stores[0].dialect}): ${JOBS} jobs in ${Date.now() - started} ms, ${byRunner[0]} + ${byRunner[1]} by runner, ${overlaps} overlaps`,
  );
  expect(runs.size).toBe(JOBS);
  expect([...runs.values()].every((n) => n === 1)).toBe(true);
  expect(overlaps).toBe(0);
  expect(byRunner[0]! > 0 && byRunner[1]! > 0).toBe(true);
  expect(await stores[0].jobs.count({ state: "done" })).toBe(JOBS);
}

test("sqlite: two connections to one WAL file share the queue", async () => {
  const dir = tempDir("gw-shared-queue-");
  const a = createSqliteStore(join(dir, "g.db"));
  const b = createSqliteStore(join(dir, "g.db"), { migrate: false });
  try {
    await drain([a, b]);
  } finally {
    await Promise.all([a.close(), b.close()]);
    rmSync(dir, { recursive: true, force: true });
  }
}, 30_000);

describePostgres("postgres", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.drop());

  test("two pools share the queue (FOR UPDATE SKIP LOCKED)", async () => {
    const a = await createPgStore(db.url, { poolSize: 4 });
    const b = await createPgStore(db.url, { poolSize: 4 });
    try {
      await drain([a, b]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  }, 30_000);
});
