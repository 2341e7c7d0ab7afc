// The serving connection can leave SQLite checkpoints to another connection (its job worker):
// deferred, its commits no longer copy the WAL back at SQLite's 1,000 pages; a checkpoint run
// elsewhere copies it; and a gateway with a job worker does so on its own within a second.

import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { createSqliteStore, WAL_CHECKPOINT_BACKSTOP_PAGES } from "../../src/store/sqlite";
import type { Store } from "../../src/store/store";
import { startTestGateway, tempDir } from "../support/gateway";

const dir = tempDir("gw-wal-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** about 1,500 pages of WAL: 3,000 jobs of 2 KB */
async function writePages(store: Store, prefix: string): Promise<void> {
  const payload = { body: "x".repeat(2000) };
  for (let batch = 0; batch < 30; batch++)
    await store.jobs.enqueueMany(Array.from({ length: 100 }, (_, i) => ({ id: `${prefix}-${batch}-${i}`, kind: "k", payload, runAt: 0, now: 0 })));
}

test("deferred, a connection's commits leave the WAL to checkpoint(), which copies all of it", async () => {
  const usual = createSqliteStore(join(dir, "usual.db"));
  await writePages(usual, "u");
  // SQLite's own checkpoint after a commit past 1,000 pages restarted the WAL
  expect((await usual.checkpoint!()).frames).toBeLessThan(1100);
  const deferring = createSqliteStore(join(dir, "deferring.db"));
  deferring.deferCheckpoints!();
  await writePages(deferring, "d");
  const copied = await deferring.checkpoint!();
  expect(copied.frames).toBeGreaterThan(1400);
  expect(copied.frames).toBeLessThan(WAL_CHECKPOINT_BACKSTOP_PAGES);
  expect(copied.copied).toBe(copied.frames);
  await usual.close();
  await deferring.close();
});

test("a gateway with a job worker checkpoints the WAL from the worker", async () => {
  const gwDir = tempDir("gw-wal-gateway-");
  const gw = await startTestGateway({ dir: gwDir, env: { WORKERS: "1" } });
  try {
    // another connection that never checkpoints on its own writes about 1,500 pages
    const other = new Database(join(gwDir, "gateway.db"));
    other.exec("PRAGMA busy_timeout = 5000");
    other.exec("PRAGMA wal_autocheckpoint = 0");
    other.exec("CREATE TABLE filler (body TEXT)");
    const insert = other.query("INSERT INTO filler VALUES ($body)");
    other.transaction(() => {
      for (let i = 0; i < 3000; i++) insert.run({ body: "x".repeat(2000) });
    })();
    await Bun.sleep(800);
    // copied back by the worker, the WAL starts over at the next write: one page, not 1,500 more
    insert.run({ body: "after" });
    const [state] = other.query<{ log: number }, []>("PRAGMA wal_checkpoint(PASSIVE)").all();
    expect(state!.log).toBeLessThan(10);
    other.close();
  } finally {
    await gw.close();
    rmSync(gwDir, { recursive: true, force: true });
  }
}, 30_000);
