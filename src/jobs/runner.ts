import type { Logger } from "../logger";
import type { JobRecord, JobStore } from "../store/job-store";
import { PermanentFailure, RetryAfter } from "./job-errors";
import type { JobKind, JobRegistry } from "./registry";
import { defaultMaxAttempts, nextAttemptAt } from "./retry-schedule";
import { Sleeper } from "./sleeper";
import { CompletionBatch } from "./completion-batch";

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

/** The lease a job is enqueued with when it is handed straight to a runner (NewJob.lease). */
export type HandOffLease = { owner: string; expiresAt: number };

/**
 * Enqueues jobs, the first `slots` of them with `lease`, and returns those it stored under that
 * lease (after they committed): the runner runs them without leasing them.
 */
export type HandOffEnqueue = (lease: HandOffLease, slots: number) => Promise<JobRecord[]>;

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
 * leases every third of a lease while they run. Between leases it sleeps until the next job is
 * due (at most `pollMs`), or until `wake()`. `stop()` stops leasing, lets running jobs finish
 * within a grace period and gives back the leases of those that did not.
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
  /** slots promised to a hand-off whose jobs are not committed yet: the lease loop leaves them free */
  private reserved = 0;
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

  /**
   * Runs jobs its caller makes, as many as it has free slots for, without a lease's write: the
   * caller enqueues them already leased to this runner (NewJob.lease) and they start once
   * committed. The slots stay promised while the caller's transaction runs. The jobs beyond the
   * free slots are enqueued pending and leased as usual.
   */
  async handOff(enqueue: HandOffEnqueue): Promise<void> {
    const slots = this.stopping ? 0 : Math.max(0, this.free());
    this.reserved += slots;
    try {
      const jobs = await enqueue({ owner: this.opts.owner, expiresAt: this.opts.clock() + this.opts.leaseMs }, slots);
      for (const job of jobs.slice(0, slots)) if (!this.running.has(job.id) && job.leaseOwner === this.opts.owner) this.track(job);
    } finally {
      this.reserved -= slots;
    }
  }

  private free(): number {
    return this.opts.concurrency - this.running.size - this.reserved;
  }

  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    clearTimeout(this.refillTimer);
    this.sleeper.wake();
    await this.loop;
    const finishing = [...this.running.values()].map((r) => r.done);
    await Promise.race([Promise.all(finishing), Bun.sleep(graceMs)]);
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
      else if (this.mayHaveDue) this.refill();
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
        kind.everyMs === undefined ? { id: job.id, dropPayload: kind.dropPayloadWhenDone === true } : { id: job.id, nextRunAt: this.opts.clock() + kind.everyMs },
      );
      const recorded = completion.then(
        (stillHeld) => {
          if (!stillHeld) this.opts.logger.warn("job finished after its lease was lost; it may run again elsewhere", { job: job.id, kind: job.kind });
        },
        (err: unknown) => this.failed(job, kind, maxAttempts, err).catch((storeErr) => this.warnStore("could not record a job's failure; it runs again when its lease ends", storeErr)),
      );
      this.completing.set(job.id, recorded);
      void recorded.finally(() => this.completing.delete(job.id));
      return kind.everyMs === undefined;
    } catch (err) {
      if (this.released.has(job.id)) return false;
      await this.failed(job, kind, maxAttempts, err).catch((storeErr) => this.warnStore("could not record a job's failure; it runs again when its lease ends", storeErr));
      return false;
    }
  }

  private async failed(job: JobRecord, kind: JobKind, maxAttempts: number, err: unknown): Promise<void> {
    const now = this.opts.clock();
    const retryAt =
      err instanceof PermanentFailure
        ? null
        : nextAttemptAt({
            attempts: job.attempts,
            maxAttempts,
            backoffMs: this.opts.backoffMs,
            now,
            retryAfterMs: err instanceof RetryAfter ? err.afterMs : undefined,
            capMs: kind.everyMs,
            random: this.random,
          });
    const error = messageOf(err);
    const recorded = await this.opts.store.fail(job.id, this.opts.owner, { error, now, retryAt });
    if (!recorded) return;
    const fields = { job: job.id, kind: job.kind, attempts: job.attempts, error };
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
