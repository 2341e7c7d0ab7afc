import { afterEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { PermanentFailure, RetryAfter } from "../../../src/jobs/job-errors";
import { type JobKind, jobRegistry } from "../../../src/jobs/registry";
import { JobRunner, type RunnerOptions } from "../../../src/jobs/runner";
import { createLogger } from "../../../src/logger";
import type { JobStore } from "../../../src/store/job-store";
import { createSqliteStore } from "../../../src/store/sqlite";
import type { Store } from "../../../src/store/store";
import { tempDir } from "../../support/gateway";

const opened: Array<{ store: Store; dir: string }> = [];
const runners: JobRunner[] = [];
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.stop(0)));
  for (const { store, dir } of opened.splice(0)) {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

function openStore(): Store {
  const dir = tempDir("gw-jobs-");
  const store = createSqliteStore(join(dir, "g.db"));
  opened.push({ store, dir });
  return store;
}

function run(store: JobStore, kinds: JobKind[], extra: Partial<RunnerOptions> = {}): { runner: JobRunner; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const runner = new JobRunner({
    store,
    registry: jobRegistry(kinds),
    owner: "test/jobs-0",
    leaseMs: 5000,
    concurrency: 2,
    backoffMs: [60_000],
    pollMs: 50,
    logger: createLogger("debug", (l) => lines.push(JSON.parse(l))),
    clock: Date.now,
    random: () => 0.5,
    ...extra,
  });
  runner.start();
  runners.push(runner);
  return { runner, lines };
}

const enqueue = (store: Store, id: string, kind = "k") => store.jobs.enqueue({ id, kind, payload: { id }, runAt: Date.now(), now: Date.now() });

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error("timed out");
    await Bun.sleep(5);
  }
}
const reaches = (store: Store, id: string, state: string) => until(async () => ((await store.jobs.get(id))?.state === state ? true : undefined));

describe("JobRunner", () => {
  test("a failed attempt logs a warn line and is retried on the schedule; the last one logs an error line and leaves the job dead", async () => {
    const store = openStore();
    const times: number[] = [];
    const { lines } = run(
      store.jobs,
      [
        {
          kind: "k",
          maxAttempts: 3,
          run: async () => {
            times.push(Date.now());
            throw new Error("receiver down");
          },
        },
      ],
      { backoffMs: [40, 80] },
    );
    await enqueue(store, "j");
    await reaches(store, "j", "dead");
    expect(times.length).toBe(3);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(39);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(79);
    const jobLines = lines.filter((l) => l.job === "j").map(({ time: _time, ...rest }) => rest);
    expect(jobLines).toEqual([
      { level: "warn", msg: "job failed; it will run again", job: "j", kind: "k", attempts: 1, error: "receiver down", retry_in_ms: 40 },
      { level: "warn", msg: "job failed; it will run again", job: "j", kind: "k", attempts: 2, error: "receiver down", retry_in_ms: 80 },
      { level: "error", msg: "job is dead: no attempt left", job: "j", kind: "k", attempts: 3, error: "receiver down" },
    ]);
    expect(await store.jobs.get("j")).toMatchObject({ state: "dead", attempts: 3, lastError: "receiver down" });
  });

  test("Retry-After replaces the backoff step; a permanent failure is dead at once", async () => {
    const store = openStore();
    const times: number[] = [];
    run(store.jobs, [
      {
        kind: "k",
        run: async () => {
          times.push(Date.now());
          if (times.length === 1) throw new RetryAfter(0.2, "HTTP 429");
        },
      },
      { kind: "gone", run: async () => Promise.reject(new PermanentFailure("HTTP 410")) },
    ]);
    await enqueue(store, "j");
    await enqueue(store, "g", "gone");
    await reaches(store, "j", "done");
    // the backoff step is a minute: only Retry-After explains the second attempt
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(199);
    expect(times[1]! - times[0]!).toBeLessThan(1000);
    await reaches(store, "g", "dead");
    expect(await store.jobs.get("g")).toMatchObject({ attempts: 1, lastError: "HTTP 410" });
  });

  test("an expected wait (RetryAfter with expected) is a debug line, not a warn line", async () => {
    const store = openStore();
    let runs = 0;
    const { lines } = run(store.jobs, [
      {
        kind: "k",
        run: async () => {
          if (++runs === 1) throw new RetryAfter(0.05, "still queued upstream", { expected: true });
        },
      },
    ]);
    await enqueue(store, "j");
    await reaches(store, "j", "done");
    const jobLines = lines.filter((l) => l.job === "j").map(({ time: _time, retry_in_ms: _in, ...rest }) => rest);
    expect(jobLines).toEqual([{ level: "debug", msg: "job waits; it will run again", job: "j", kind: "k", attempts: 1, error: "still queued upstream" }]);
  });

  test("a job running longer than its lease keeps it (renewed): another runner never takes it", async () => {
    const store = openStore();
    let runs = 0;
    const slow: JobKind = { kind: "k", run: async () => void (runs++, await Bun.sleep(600)) };
    run(store.jobs, [slow], { leaseMs: 150, owner: "a" });
    run(store.jobs, [slow], { leaseMs: 150, owner: "b" });
    await enqueue(store, "j");
    await reaches(store, "j", "done");
    expect(runs).toBe(1);
    expect((await store.jobs.get("j"))?.attempts).toBe(1);
  });

  test("stop: a job that finishes within the grace period is done; one that does not is given back, its attempt not counted", async () => {
    const store = openStore();
    const { runner } = run(store.jobs, [
      { kind: "quick", run: () => Bun.sleep(100) },
      { kind: "endless", run: (_p, { signal }) => new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason))) },
    ]);
    await enqueue(store, "q", "quick");
    await enqueue(store, "e", "endless");
    await until(async () => (runner.active === 2 ? true : undefined));
    const stopping = Date.now();
    await runner.stop(300);
    expect(Date.now() - stopping).toBeLessThan(600);
    expect((await store.jobs.get("q"))?.state).toBe("done");
    expect(await store.jobs.get("e")).toMatchObject({ state: "pending", attempts: 0, leaseOwner: null });
  });

  test("completions of a busy moment share one write: the jobs that finish in one turn, then the next within the window", async () => {
    const store = openStore();
    const completeWrites: string[][] = [];
    const counted: JobStore = {
      ...store.jobs,
      completeMany: (owner, done, now) => (completeWrites.push(done.map((c) => c.id)), store.jobs.completeMany(owner, done, now)),
    };
    const ran: string[] = [];
    const now = Date.now();
    await store.jobs.enqueueMany(["h1", "h2", "h3"].map((id) => ({ id, kind: "k", payload: { id }, runAt: now, now })));
    const { runner } = run(counted, [{ kind: "k", run: async (p) => void ran.push((p as { id: string }).id) }], { concurrency: 3, completionWindowMs: 200 });
    await reaches(store, "h3", "done");
    await enqueue(store, "h4");
    runner.wake();
    await reaches(store, "h4", "done");
    expect(ran.sort()).toEqual(["h1", "h2", "h3", "h4"]);
    expect(await store.jobs.get("h1")).toMatchObject({ attempts: 1, leaseOwner: null });
    expect(completeWrites).toEqual([["h1", "h2", "h3"], ["h4"]]);
    expect((await store.jobs.stats(Date.now())).outcomes).toEqual([{ kind: "k", outcome: "succeeded", count: 4 }]);
  });

  test("with a backlog, freed slots are gathered: one lease takes the jobs of several, not one lease per finished job", async () => {
    const store = openStore();
    const leases: number[] = [];
    const counted: JobStore = {
      ...store.jobs,
      lease: async (r) => {
        const jobs = await store.jobs.lease(r);
        if (jobs.length > 0) leases.push(jobs.length);
        return jobs;
      },
    };
    const now = Date.now();
    await store.jobs.enqueueMany(Array.from({ length: 80 }, (_, i) => ({ id: `b${i}`, kind: "k", payload: {}, runAt: now, now })));
    // jobs of uneven length finish one at a time
    let n = 0;
    run(counted, [{ kind: "k", run: () => Bun.sleep(1 + (n++ % 7)) }], { concurrency: 8, completionWindowMs: 5 });
    await until(async () => ((await store.jobs.count({ state: "done" })) === 80 ? true : undefined), 20_000);
    expect(leases.reduce((a, b) => a + b, 0)).toBe(80);
    // one lease per finished job would be about 73; gathered (at half the slots or 10 ms) a lease takes 2 or more
    expect(leases.length).toBeLessThanOrEqual(40);
  });

  test("a kind that drops its payload when done: the done job's payload is null, a dead one keeps it", async () => {
    const store = openStore();
    run(store.jobs, [
      {
        kind: "k",
        dropPayloadWhenDone: true,
        run: async (p) => {
          if ((p as { fail?: boolean }).fail) throw new PermanentFailure("no");
        },
      },
    ]);
    const now = Date.now();
    await store.jobs.enqueueMany([
      { id: "ok", kind: "k", payload: { prompt: "secret" }, runAt: now, now },
      { id: "bad", kind: "k", payload: { prompt: "secret", fail: true }, runAt: now, now },
    ]);
    await reaches(store, "ok", "done");
    await reaches(store, "bad", "dead");
    expect((await store.jobs.get("ok"))?.payload).toBeNull();
    expect((await store.jobs.get("bad"))?.payload).toEqual({ prompt: "secret", fail: true });
  });

  test("an attempt without a row: a success writes nothing; a failure comes back as what to store, on the schedule of a stored job's first attempt, logged alike", async () => {
    const store = openStore();
    const writes: string[] = [];
    const spied: JobStore = {
      ...store.jobs,
      completeMany: (o, d, n) => (writes.push("complete"), store.jobs.completeMany(o, d, n)),
      fail: (id, o, f) => (writes.push("fail"), store.jobs.fail(id, o, f)),
    };
    const { runner, lines } = run(spied, [
      { kind: "k", run: async () => {} },
      { kind: "once", maxAttempts: 1, run: async () => {} },
    ]);
    const clockBefore = Date.now();
    expect(await runner.attemptUnstored({ id: "u-ok", kind: "k" }, async () => {})).toEqual({ kind: "succeeded" });
    const waits = await runner.attemptUnstored({ id: "u-429", kind: "k" }, async () => Promise.reject(new RetryAfter(7, "HTTP 429")));
    const backs = await runner.attemptUnstored({ id: "u-503", kind: "k" }, async () => Promise.reject(new Error("HTTP 503")));
    const refused = await runner.attemptUnstored({ id: "u-400", kind: "k" }, async () => Promise.reject(new PermanentFailure("HTTP 400: bad body")));
    const last = await runner.attemptUnstored({ id: "u-once", kind: "once" }, async () => Promise.reject(new Error("HTTP 500")));
    const after = Date.now();
    expect(waits).toMatchObject({ kind: "failed", attempted: { error: "HTTP 429" } });
    const at = (o: typeof waits) => (o.kind === "failed" ? o.attempted.retryAt! : NaN);
    expect(at(waits)).toBeGreaterThanOrEqual(clockBefore + 7000);
    expect(at(waits)).toBeLessThanOrEqual(after + 7000);
    // the first backoff step (60 s) with the runner's random 0.5: no jitter
    expect(at(backs)).toBeGreaterThanOrEqual(clockBefore + 60_000);
    expect(at(backs)).toBeLessThanOrEqual(after + 60_000);
    expect(refused).toEqual({ kind: "failed", attempted: { error: "HTTP 400: bad body", retryAt: null } });
    expect(last).toEqual({ kind: "failed", attempted: { error: "HTTP 500", retryAt: null } });
    expect(writes).toEqual([]);
    expect(lines.filter((l) => l.job).map((l) => [l.level, l.msg, l.job, l.attempts])).toEqual([
      ["warn", "job failed; it will run again", "u-429", 1],
      ["warn", "job failed; it will run again", "u-503", 1],
      ["error", "job is dead: no attempt left", "u-400", 1],
      ["error", "job is dead: no attempt left", "u-once", 1],
    ]);
    await expect(runner.attemptUnstored({ id: "x", kind: "unknown" }, async () => {})).rejects.toThrow("job kind 'unknown' is not registered");
    // a run that throws before any await fails like any other, and frees its slot
    const sync = await runner.attemptUnstored({ id: "u-sync", kind: "k" }, () => {
      throw new Error("thrown at once");
    });
    expect(sync).toMatchObject({ kind: "failed", attempted: { error: "thrown at once" } });
    expect(runner.room).toBe(2);
  });

  test("attempts without a row share the slots: beyond them they wait, and a freed slot goes to them before any lease", async () => {
    const store = openStore();
    const { runner } = run(store.jobs, [{ kind: "k", run: async () => {} }], { concurrency: 2 });
    const gates = new Map<string, () => void>();
    const started: string[] = [];
    const attempt = (id: string) => runner.attemptUnstored({ id, kind: "k" }, () => new Promise<void>((resolve) => (started.push(id), gates.set(id, resolve))));
    expect(runner.room).toBe(2);
    const a = attempt("a");
    const b = attempt("b");
    const c = attempt("c");
    await until(async () => (started.length === 2 ? true : undefined));
    expect(runner.room).toBe(-1);
    // a stored job due now waits too: the slot that frees is c's
    await enqueue(store, "stored");
    runner.wake();
    await Bun.sleep(30);
    expect((await store.jobs.get("stored"))?.state).toBe("pending");
    gates.get("a")!();
    expect(await a).toEqual({ kind: "succeeded" });
    await until(async () => (started.length === 3 ? true : undefined));
    expect(started).toEqual(["a", "b", "c"]);
    expect((await store.jobs.get("stored"))?.state).toBe("pending");
    gates.get("b")!();
    gates.get("c")!();
    expect([await b, await c]).toEqual([{ kind: "succeeded" }, { kind: "succeeded" }]);
    await reaches(store, "stored", "done");
    expect(runner.room).toBe(2);
  });

  test("stop: a waiting attempt is abandoned at once; a running one finishes within the grace, or is aborted and abandoned", async () => {
    const store = openStore();
    const { runner } = run(store.jobs, [{ kind: "k", run: async () => {} }], { concurrency: 2 });
    const quick = runner.attemptUnstored({ id: "quick", kind: "k" }, () => Bun.sleep(50));
    let aborted = false;
    const endless = runner.attemptUnstored(
      { id: "endless", kind: "k" },
      (signal) => new Promise<void>((_, reject) => signal.addEventListener("abort", () => ((aborted = true), reject(signal.reason)))),
    );
    const waiting = runner.attemptUnstored({ id: "waiting", kind: "k" }, async () => {});
    const stopped = runner.stop(200);
    expect(await waiting).toEqual({ kind: "abandoned" });
    expect(await quick).toEqual({ kind: "succeeded" });
    await stopped;
    expect(await endless).toEqual({ kind: "abandoned" });
    expect(aborted).toBe(true);
    expect(await runner.attemptUnstored({ id: "late", kind: "k" }, async () => {})).toEqual({ kind: "abandoned" });
  });

  test("a recurring kind runs again its period after each success", async () => {
    const store = openStore();
    const times: number[] = [];
    run(store.jobs, [{ kind: "tick", everyMs: 100, run: async () => void times.push(Date.now()) }]);
    await enqueue(store, "t", "tick");
    await until(async () => (times.length >= 3 ? true : undefined));
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(99);
    expect(await store.jobs.get("t")).toMatchObject({ state: "pending", attempts: 0 });
  });

  test("idle, it sleeps: a few looks at the queue per poll period, not a spin", async () => {
    const store = openStore();
    let calls = 0;
    const counted: JobStore = { ...store.jobs, lease: (r) => (calls++, store.jobs.lease(r)), nextDue: (k) => (calls++, store.jobs.nextDue(k)) };
    run(counted, [{ kind: "k", run: async () => {} }], { pollMs: 100 });
    await Bun.sleep(500);
    // one lease and one nextDue per period of 100 ms
    expect(calls).toBeGreaterThanOrEqual(6);
    expect(calls).toBeLessThanOrEqual(14);
  });
});
