// A lease reads as many jobs as it takes, not the whole backlog: with one OR over pending jobs and
// ended leases, SQLite read and sorted every pending job on each lease (1.1 ms with 500 pending,
// growing with the queue), and a runner under load spent more on leasing than on its jobs.
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { NewJob } from "../../src/store/job-store";
import { createSqliteStore } from "../../src/store/sqlite";
import type { Store } from "../../src/store/store";
import { tempDir } from "../support/gateway";

const dir = tempDir("gw-lease-cost-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const KINDS = ["a", "b"];
const payload = { body: "x".repeat(2000) };

async function storeWithBacklog(name: string, pending: number): Promise<Store> {
  const store = createSqliteStore(join(dir, `${name}.db`));
  const jobs: NewJob[] = Array.from({ length: pending }, (_, i) => ({ id: `${name}-${i}`, kind: i % 2 ? "a" : "b", payload, runAt: 1000 + i, now: 0 }));
  for (let i = 0; i < jobs.length; i += 1000) await store.jobs.enqueueMany(jobs.slice(i, i + 1000));
  return store;
}

/** µs of this thread's CPU per lease of 10, over 40 leases */
async function leaseCost(store: Store): Promise<number> {
  await store.jobs.lease({ owner: "warm", now: 10_000_000, leaseMs: 60_000, limit: 10, kinds: KINDS });
  const before = process.threadCpuUsage();
  for (let i = 0; i < 40; i++) expect(await store.jobs.lease({ owner: "w", now: 10_000_000, leaseMs: 60_000, limit: 10, kinds: KINDS })).toHaveLength(10);
  const after = process.threadCpuUsage();
  return (after.user + after.system - before.user - before.system) / 40;
}

test("a lease of 10 costs about the same behind 20,000 pending jobs as behind 500", async () => {
  const small = await storeWithBacklog("small", 500);
  const large = await storeWithBacklog("large", 20_000);
  const costs = { small: await leaseCost(small), large: await leaseCost(large) };
  // read and sorted whole, 40 times the jobs cost about 40 times as much
  expect(costs.large).toBeLessThan(costs.small * 4);
  await small.close();
  await large.close();
}, 60_000);
