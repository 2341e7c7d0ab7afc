import type { Logger } from "../logger";
import type { JobRecord, JobStore } from "../store/job-store";
import { CompletionBatch } from "./completion-batch";
import { PermanentFailure, RetryAfter } from "./job-errors";
import type { JobKind, JobRegistry } from "./registry";
import { defaultMaxAttempts, nextAttemptAt } from "./retry-schedule";
import { Sleeper } from "./sleeper";

export type RunnerOptions = {
  store: JobStore;
  registry: JobRegistry;
  /** names this runner in leases: instance and worker */
  owner: string;
  leaseMs: number;
  /** jobs run at once */
  concurrency: number;
  backoffMs: readonly number[];
  /** the longest an idle runner sleeps before it looks at the queue again (jobs enqueued by other processes) */
  pollMs: number;
  logger: Logger;
  clock: () => number;
  random?: () => number;
  /** the shortest time between two writes of succeeded attempts (CompletionBatch); default 25 ms */
  completionWindowMs?: number;
};

/** How the attempt of a job that has no row ended (JobRunner.attemptUnstored). */
export type UnstoredOutcome =
  | { kind: "succeeded" }
  /** to be stored as NewJob.attempted: pending again at `retryAt`, or dead when it is null */
  | { kind: "failed"; attempted: { error: string; retryAt: number | null } }
  /** it did not run to its end: the runner is stopping; the caller's durable copy makes it run later */
  | { kind: "abandoned" };

const COMPLETION_WINDOW_MS = 25;

/** Shortest sleep between two looks at the queue, so a job that is due but cannot be leased yet never makes the loop spin. */
const MIN_SLEEP_MS = 25;

/**
 * With a backlog, the longest a freed slot waits for others before the runner leases again. A
 * lease is one write transaction whatever it takes: one per finished job (8,400 leases of one
 * job each for 9,000 deliveries, measured) costs the worker more than the jobs themselves.
 */
const REFILL_GATHER_MS = 10;

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err)).slice(0, 2000);

/**
 * Leases jobs of the registry's kinds and runs them, `concurrency` at a time, renewing their
 * leases every third of a lease while they run; first attempts of jobs that have no row yet
 * (`attemptUnstored`) share the same slots. Between leases it sleeps until the next job is due
 * (at most `pollMs`), or until `wake()`. `stop()` stops leasing, lets running jobs finish within
 * a grace period and gives back the leases of those that did not.
 */
export class JobRunner {
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private readonly released = new Set<string>();
  /** jobs that ran to success and wait for their completion's write (CompletionBatch) */
  private readonly completing = new Map<string, Promise<void>>();
  private readonly sleeper = new Sleeper();
  private readonly kinds: string[];
  private readonly random: () => number;
  private readonly completions: CompletionBatch;
  /** attempts of jobs that have no row (attemptUnstored), running */
  private readonly unstored = new Map<AbortController, Promise<unknown>>();
  /** attempts of jobs that have no row, waiting for a slot: they take the next one before any lease */
  private waiting: Array<(controller: AbortController | null) => void> = [];
  /**
   * False when the last lease found fewer due jobs than it asked for and nobody has enqueued
   * since: a finished job then frees a slot without a look at the queue (a lease statement that
   * would take nothing). The poll still looks, for jobs other processes enqueue.
   */
  private mayHaveDue = true;
  private wakeups = 0;
  private stopping = false;
  private loop: Promise<void> = Promise.resolve();
  private renewal: ReturnType<typeof setInterval> | undefined;
  private storeWarned = false;
  /** a lease waiting for more slots to free up (refill) */
  private refillTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly opts: RunnerOptions) {
    this.kinds = [...opts.registry.keys()];
    this.random = opts.random ?? Math.random;
    this.completions = new CompletionBatch((done) => opts.store.completeMany(opts.owner, done, opts.clock()), opts.completionWindowMs ?? COMPLETION_WINDOW_MS);
  }

  start(): void {
    this.loop = this.leaseLoop();
    this.renewal = setInterval(() => void this.renew(), Math.max(10, Math.floor(this.opts.leaseMs / 3)));
  }

  /** something was enqueued: look at the queue now */
  wake(): void {
    this.wakeups++;
    this.mayHaveDue = true;
    this.sleeper.wake();
  }

  get active(): number {
    return this.running.size;
  }

  /** slots nothing holds or waits for: what a caller of attemptUnstored may fill without waiting */
  get room(): number {
    return this.free();
  }

  /**
   * Runs the first attempt of a job that has no row, in one of this runner's slots (waiting for
   * one when all are taken): its caller keeps the job durable meanwhile in a form of its own (a
   * generation's observation outbox row) and stores it only when the attempt failed. A job that
   * succeeds at once, the usual case, so costs no write of its own. The retry schedule and the
   * logging are those of a stored job's first attempt.
   */
  async attemptUnstored(job: { id: string; kind: string }, run: (signal: AbortSignal) => Promise<void>): Promise<UnstoredOutcome> {
    if (!this.opts.registry.get(job.kind)) throw new Error(`job kind '${job.kind}' is not registered`);
    const controller = await this.slot();
    if (!controller) return { kind: "abandoned" };
    // a run that ignores its signal does not hold a stopping runner
    const aborted = new Promise<never>((_, reject) => controller.signal.addEventListener("abort", () => reject(controller.signal.reason), { once: true }));
    // through an async function: a run that throws before its first await still ends as a failure, its slot freed
    const attempt = Promise.race([(async () => run(controller.signal))(), aborted]).then(
      (): UnstoredOutcome => ({ kind: "succeeded" }),
      (err: unknown): UnstoredOutcome => (controller.signal.aborted && this.stopping ? { kind: "abandoned" } : this.firstAttemptFailed(job, err)),
    );
    this.unstored.set(controller, attempt);
    try {
      return await attempt;
    } finally {
      this.unstored.delete(controller);
      this.slotFreed();
    }
  }

  /**
   * How a first attempt without a row that failed with `err` is to be stored, logged as a stored
   * job's first attempt is: for attemptUnstored, and for each job of an attempt that sent several
   * together (their outcomes may differ).
   */
  firstAttemptFailed(job: { id: string; kind: string }, err: unknown): Extract<UnstoredOutcome, { kind: "failed" }> {
    const kind = this.opts.registry.get(job.kind);
    if (!kind) throw new Error(`job kind '${job.kind}' is not registered`);
    const now = this.opts.clock();
    const attempted = this.failureOf(1, kind, err, now);
    this.logFailure({ job: job.id, kind: job.kind, attempts: 1, error: attempted.error }, attempted.retryAt, now, err);
    return { kind: "failed", attempted };
  }

  private free(): number {
    return this.opts.concurrency - this.busy() - this.waiting.length;
  }

  private busy(): number {
    return this.running.size + this.unstored.size;
  }

  /** a slot for an attempt without a row, at once or when one frees; null when the runner stops first */
  private slot(): Promise<AbortController | null> {
    if (this.stopping) return Promise.resolve(null);
    if (this.waiting.length === 0 && this.busy() < this.opts.concurrency) return Promise.resolve(this.hold());
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** a slot taken at once (before any await), so the next caller in the same turn sees it taken */
  private hold(): AbortController {
    const controller = new AbortController();
    this.unstored.set(controller, Promise.resolve());
    return controller;
  }

  /** a slot freed: waiting attempts take it first; else, with a backlog, a lease may */
  private slotFreed(): void {
    while (this.waiting.length > 0 && this.busy() < this.opts.concurrency) this.waiting.shift()!(this.hold());
    if (this.waiting.length === 0 && this.mayHaveDue) this.refill();
  }

  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    clearTimeout(this.refillTimer);
    for (const waiter of this.waiting.splice(0)) waiter(null);
    this.sleeper.wake();
    await this.loop;
    const finishing = [...[...this.running.values()].map((r) => r.done), ...this.unstored.values()];
    await Promise.race([Promise.all(finishing), Bun.sleep(graceMs)]);
    for (const controller of this.unstored.keys()) controller.abort(new Error("the worker is stopping"));
    await this.completions.flushNow();
    await Promise.all(this.completing.values());
    clearInterval(this.renewal);
    const unfinished = [...this.running.keys()];
    if (unfinished.length === 0) return;
    for (const id of unfinished) {
      this.released.add(id);
      this.running.get(id)?.controller.abort(new Error("the worker is stopping"));
    }
    const released = await this.opts.store.release(this.opts.owner, unfinished, this.opts.clock()).catch(() => 0);
    this.opts.logger.warn("stopped with jobs unfinished: their leases are given back", { owner: this.opts.owner, jobs: unfinished, released });
  }

  private async leaseLoop(): Promise<void> {
    while (!this.stopping) {
      const free = this.free();
      let leased = 0;
      if (free > 0) leased = await this.leaseAndRun(free);
      if (this.stopping) return;
      // a full batch may mean more are due: look again at once
      if (leased > 0 && leased === free) continue;
      await this.sleeper.sleep(this.free() <= 0 ? this.opts.pollMs : await this.untilNextDue());
    }
  }

  private async leaseAndRun(limit: number): Promise<number> {
    const { store, owner, leaseMs, clock } = this.opts;
    try {
      const wakeups = this.wakeups;
      clearTimeout(this.refillTimer);
      this.refillTimer = undefined;
      const jobs = await store.lease({ owner, now: clock(), leaseMs, limit, kinds: this.kinds });
      this.storeWarned = false;
      this.mayHaveDue = jobs.length === limit || this.wakeups !== wakeups;
      for (const job of jobs) this.track(job);
      return jobs.length;
    } catch (err) {
      this.warnStore("could not lease jobs", err);
      return 0;
    }
  }

  private async untilNextDue(): Promise<number> {
    try {
      const at = await this.opts.store.nextDue(this.kinds);
      if (at === null) return this.opts.pollMs;
      return Math.min(this.opts.pollMs, Math.max(MIN_SLEEP_MS, at - this.opts.clock()));
    } catch (err) {
      this.warnStore("could not read the job queue", err);
      return this.opts.pollMs;
    }
  }

  private track(job: JobRecord): void {
    const controller = new AbortController();
    const done = this.execute(job, controller.signal).then((quiet) => {
      this.running.delete(job.id);
      this.released.delete(job.id);
      // a failure or a recurring job changed when the queue is next due: look again
      if (!quiet) this.sleeper.wake();
      this.slotFreed();
    });
    this.running.set(job.id, { controller, done });
  }

  /**
   * A slot freed while more jobs may be due: lease at once when half the slots are free, else
   * within REFILL_GATHER_MS, so one lease takes the jobs of many freed slots.
   */
  private refill(): void {
    if (this.free() * 2 >= this.opts.concurrency) {
      this.sleeper.wake();
      return;
    }
    this.refillTimer ??= setTimeout(() => {
      this.refillTimer = undefined;
      this.sleeper.wake();
    }, REFILL_GATHER_MS);
  }

  /** true when the job succeeded and is done (the queue's next due time is unchanged) */
  private async execute(job: JobRecord, signal: AbortSignal): Promise<boolean> {
    const kind = this.opts.registry.get(job.kind)!;
    const maxAttempts = kind.maxAttempts ?? defaultMaxAttempts(this.opts.backoffMs);
    try {
      // leases taken again after a process died count too: a job that kills its process ends here
      if (job.attempts > maxAttempts) throw new PermanentFailure(`no attempt left after ${job.attempts - 1} attempts (the last one's lease ran out)`);
      await kind.run(job.payload, { job, signal });
      if (this.released.has(job.id)) return false;
      // the slot is free once the job has run; its lease is held (and renewed) until the completion is written
      const completion = this.completions.add(
        kind.everyMs === undefined
          ? { id: job.id, dropPayload: kind.dropPayloadWhenDone === true }
          : { id: job.id, nextRunAt: this.opts.clock() + kind.everyMs },
      );
      const recorded = completion.then(
        (stillHeld) => {
          if (!stillHeld) this.opts.logger.warn("job finished after its lease was lost; it may run again elsewhere", { job: job.id, kind: job.kind });
        },
        (err: unknown) =>
          this.failed(job, kind, maxAttempts, err).catch((storeErr) =>
            this.warnStore("could not record a job's failure; it runs again when its lease ends", storeErr),
          ),
      );
      this.completing.set(job.id, recorded);
      void recorded.finally(() => this.completing.delete(job.id));
      return kind.everyMs === undefined;
    } catch (err) {
      if (this.released.has(job.id)) return false;
      await this.failed(job, kind, maxAttempts, err).catch((storeErr) =>
        this.warnStore("could not record a job's failure; it runs again when its lease ends", storeErr),
      );
      return false;
    }
  }

  private async failed(job: JobRecord, kind: JobKind, maxAttempts: number, err: unknown): Promise<void> {
    const now = this.opts.clock();
    const failure = this.failureOf(job.attempts, kind, err, now, maxAttempts);
    const recorded = await this.opts.store.fail(job.id, this.opts.owner, { ...failure, now });
    if (recorded) this.logFailure({ job: job.id, kind: job.kind, attempts: job.attempts, error: failure.error }, failure.retryAt, now, err);
  }

  /** what a failed attempt leaves: its error, and when the job runs again (null: never, it is dead) */
  private failureOf(
    attempts: number,
    kind: JobKind,
    err: unknown,
    now: number,
    maxAttempts = kind.maxAttempts ?? defaultMaxAttempts(this.opts.backoffMs),
  ): { error: string; retryAt: number | null } {
    const retryAt =
      err instanceof PermanentFailure
        ? null
        : nextAttemptAt({
            attempts,
            maxAttempts,
            backoffMs: this.opts.backoffMs,
            now,
            retryAfterMs: err instanceof RetryAfter ? err.afterMs : undefined,
            capMs: kind.everyMs,
            random: this.random,
          });
    return { error: messageOf(err), retryAt };
  }

  private logFailure(fields: { job: string; kind: string; attempts: number; error: string }, retryAt: number | null, now: number, err: unknown): void {
    if (retryAt === null) this.opts.logger.error("job is dead: no attempt left", fields);
    else if (err instanceof RetryAfter && err.expected) this.opts.logger.debug("job waits; it will run again", { ...fields, retry_in_ms: retryAt - now });
    else this.opts.logger.warn("job failed; it will run again", { ...fields, retry_in_ms: retryAt - now });
  }

  /** renews the leases of running jobs; a job whose lease was lost is told to stop */
  private async renew(): Promise<void> {
    const ids = [...this.running.keys(), ...this.completing.keys()];
    if (ids.length === 0) return;
    try {
      const held = new Set(await this.opts.store.renew(this.opts.owner, ids, this.opts.clock() + this.opts.leaseMs));
      for (const id of ids) if (!held.has(id) && this.running.has(id)) this.running.get(id)!.controller.abort(new Error("the job's lease was lost"));
    } catch (err) {
      this.warnStore("could not renew job leases", err);
    }
  }

  /** the database is away: one warn line until it answers again */
  private warnStore(message: string, err: unknown): void {
    if (!this.storeWarned) this.opts.logger.warn(message, { owner: this.opts.owner, error: messageOf(err) });
    this.storeWarned = true;
  }
}
