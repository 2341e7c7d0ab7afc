// A thread for thread-write-lock.test.ts: opens the test's SQLite file with the lock it is given
// (or none) and holds a write transaction for `holdMs`, as a job worker's long write does.
import { createSqliteStore } from "../../src/store/sqlite";

declare const self: Worker;

type Hold = { path: string; writeLock?: SharedArrayBuffer; holdMs: number };

self.onmessage = async (event: MessageEvent<Hold>) => {
  const { path, writeLock, holdMs } = event.data;
  const store = createSqliteStore(path, { migrate: false, writeLock });
  await store.transaction(async (tx) => {
    await tx.jobs.countOutcomes([{ kind: "thread-test", outcome: "succeeded", count: 1 }]);
    self.postMessage("holding");
    await Bun.sleep(holdMs);
  });
  await store.close();
  self.postMessage("released");
};
