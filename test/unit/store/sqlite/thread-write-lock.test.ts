import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSqliteStore } from "../../../../src/store/sqlite";
import { ThreadWriteLock } from "../../../../src/store/sqlite/thread-write-lock";
import { reservation } from "../../../store/contract/fixtures";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

test("the lock is taken by one holder at a time; a waiter gets it when it is released", async () => {
  const lock = new ThreadWriteLock();
  const other = new ThreadWriteLock(lock.buffer);
  expect(lock.tryTake()).toBe(true);
  expect(other.tryTake()).toBe(false);
  let got: boolean | undefined;
  const waiting = other.take().then((held) => (got = held));
  await Bun.sleep(20);
  expect(got).toBeUndefined();
  lock.release();
  expect(await waiting).toBe(true);
  expect(lock.tryTake()).toBe(false);
  other.release();
  expect(lock.tryTake()).toBe(true);
});

test("a waiter gives up after its time, so a holder that never releases cannot stop writes for good", async () => {
  const lock = new ThreadWriteLock();
  expect(lock.tryTake()).toBe(true);
  const started = performance.now();
  expect(await new ThreadWriteLock(lock.buffer).take(60)).toBe(false);
  expect(performance.now() - started).toBeGreaterThanOrEqual(55);
});

/** A store on a file of its own (another thread opens the same file), removed after the test. */
function fileStore() {
  const dir = mkdtempSync(join(tmpdir(), "gw-thread-lock-"));
  dirs.push(dir);
  const path = join(dir, "gateway.db");
  return { path, store: createSqliteStore(path) };
}

/** Holds a write transaction in another thread for `holdMs`, sharing `writeLock` or not; resolves once it holds it. */
async function holdInThread(path: string, writeLock: SharedArrayBuffer | undefined, holdMs: number): Promise<{ released: Promise<void>; worker: Worker }> {
  const worker = new Worker(new URL("../../../support/sqlite-writer-thread.ts", import.meta.url).href);
  let released!: () => void;
  const done = new Promise<void>((resolve) => (released = resolve));
  const holding = new Promise<void>((resolve) => {
    worker.onmessage = (event: MessageEvent<string>) => (event.data === "holding" ? resolve() : released());
  });
  worker.postMessage({ path, writeLock, holdMs });
  await holding;
  return { released: done, worker };
}

/** The longest time this thread's event loop went without running a 2 ms timer while `work` ran. */
async function longestStall(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 2);
  try {
    await work();
  } finally {
    clearInterval(ticker);
  }
  return Math.max(longest, performance.now() - last);
}

test("a write that meets another thread's write transaction waits for it without stopping this thread", async () => {
  const { path, store } = fileStore();
  try {
    const { released, worker } = await holdInThread(path, store.writeLock, 400);
    const started = performance.now();
    let waited = 0;
    const stall = await longestStall(async () => {
      await store.jobs.countOutcomes([{ kind: "thread-test", outcome: "succeeded", count: 1 }]);
      waited = performance.now() - started;
    });
    await released;
    worker.terminate();
    // the write waited for the other thread's transaction (it was not lost, nor done inside it)
    expect(waited).toBeGreaterThan(300);
    expect((await store.jobs.stats(Date.now())).outcomes).toEqual([{ kind: "thread-test", outcome: "succeeded", count: 2 }]);
    // while it waited, this thread kept running its timers (SQLite's busy handler would have slept ~400 ms)
    expect(stall).toBeLessThan(100);
  } finally {
    await store.close();
  }
});

test("while another thread writes, a reservation that only reads and holds in memory is not held up; one that starts its usage row waits", async () => {
  const { path, store } = fileStore();
  try {
    // the key's usage row exists from its first reservation
    expect(await store.reservations.reserve(reservation("r0", "k", 1000, 100))).toBeNull();
    const { released, worker } = await holdInThread(path, store.writeLock, 400);
    const started = performance.now();
    const known = store.reservations.reserve(reservation("r1", "k", 1000, 100)).then((left) => ({ left, ms: performance.now() - started }));
    const fresh = store.reservations.reserve(reservation("r2", "new-key", 1000, 100)).then((left) => ({ left, ms: performance.now() - started }));
    const [a, b] = await Promise.all([known, fresh]);
    await released;
    worker.terminate();
    expect(a.left).toBeNull();
    expect(a.ms).toBeLessThan(100);
    expect(b.left).toBeNull();
    expect(b.ms).toBeGreaterThan(250);
    expect(await store.reservations.held("k")).toBe(200);
  } finally {
    await store.close();
  }
});
