/**
 * The durable job queue (the outbox): rows that say "run handler `kind` with `payload` at
 * `runAt`". The store keeps jobs and leases them atomically; when to retry and when to give up is
 * decided by the runner (src/jobs/), which hands the store plain times.
 */

export type JobState = "pending" | "running" | "done" | "dead";

export const JOB_STATES: readonly JobState[] = ["pending", "running", "done", "dead"];

export type JobRecord = {
  id: string;
  kind: string;
  /** unique among all jobs when set: enqueueing a key already stored is a no-op */
  key: string | null;
  /** JSON, stored as given and read back equal */
  payload: unknown;
  state: JobState;
  /** when it is (or was) due: pending jobs do not run before it */
  runAt: number;
  /** leases taken so far; the one running now included */
  attempts: number;
  /** who holds the lease, and until when (running only) */
  leaseOwner: string | null;
  leaseExpiresAt: number | null;
  lastError: string | null;
  createdAt: number;
  updatedAt: number;
};

export type NewJob = {
  id: string;
  kind: string;
  key?: string | null;
  payload: unknown;
  runAt: number;
  now: number;
  /**
   * Its first attempt already ran, before it was stored (JobRunner.attemptUnstored), and failed:
   * stored with attempts 1 and `error` as its last error, pending at `retryAt`, or dead when that
   * is null; the attempt is counted in `stats().outcomes` (failed, or dead) when the job is stored
   * (not when its key was stored already).
   */
  attempted?: { error: string; retryAt: number | null };
};

/**
 * A succeeded attempt to record: done, or pending again at `nextRunAt` (a recurring job).
 * `dropPayload`: done, its payload becomes null (JobKind.dropPayloadWhenDone).
 */
export type Completion = { id: string; nextRunAt?: number; dropPayload?: boolean };

export type LeaseRequest = {
  owner: string;
  now: number;
  /** the lease ends at now + leaseMs unless renewed */
  leaseMs: number;
  limit: number;
  /** only jobs of these kinds (the runner leases only what it can run) */
  kinds: readonly string[];
};

/** How a finished attempt ended, as counted by kind in `stats`. */
export type JobOutcome = "succeeded" | "failed" | "dead";

/** What an attempt that did not succeed leaves: retried at `retryAt`, or dead when it is null. */
export type JobFailure = { error: string; now: number; retryAt: number | null };

export type JobFilter = { state?: JobState; kind?: string };

export type JobStats = {
  /** jobs by kind and state; combinations without jobs are left out */
  queues: Array<{ kind: string; state: JobState; count: number }>;
  /** finished attempts by kind and outcome, since the database was created */
  outcomes: Array<{ kind: string; outcome: JobOutcome; count: number }>;
  /** by kind: the earliest runAt among pending jobs due at `now` (none due: left out) */
  oldestDue: Array<{ kind: string; runAt: number }>;
};

export interface JobStore {
  /** stores a pending job; with a key already stored, returns that job and stores nothing */
  enqueue(job: NewJob): Promise<JobRecord>;
  /**
   * Several `enqueue`s in one step, in order (SQLite: one synchronous write, so a transaction
   * around it holds the write lock for the inserts alone, not for awaits between them).
   */
  enqueueMany(jobs: readonly NewJob[]): Promise<JobRecord[]>;
  /**
   * In one atomic step across every process: takes up to `limit` jobs of `kinds` that are due
   * (pending with runAt <= now, or running with a lease that ended before now), earliest runAt
   * first, skipping those another process is taking; each becomes running under `owner` with
   * attempts + 1. PostgreSQL: FOR UPDATE SKIP LOCKED.
   */
  lease(req: LeaseRequest): Promise<JobRecord[]>;
  /** moves the lease of those of `ids` that `owner` still holds to `expiresAt`; returns the ids it holds */
  renew(owner: string, ids: readonly string[], expiresAt: number): Promise<string[]>;
  /**
   * The attempt succeeded: done, or pending again at `nextRunAt` with attempts 0 (a recurring
   * job). False when `owner` no longer holds the lease (it expired and another took it).
   */
  complete(id: string, owner: string, now: number, nextRunAt?: number): Promise<boolean>;
  /** several succeeded attempts in one write, each as `complete`; returns the ids `owner` still held */
  completeMany(owner: string, completions: readonly Completion[], now: number): Promise<string[]>;
  /** counts finished attempts of jobs that never had a row (JobRunner.attemptUnstored's successes) in `stats().outcomes` */
  countOutcomes(counts: ReadonlyArray<{ kind: string; outcome: JobOutcome; count: number }>): Promise<void>;
  /** the attempt failed: pending at `retryAt`, or dead; false when `owner` no longer holds the lease */
  fail(id: string, owner: string, failure: JobFailure): Promise<boolean>;
  /** gives back leases without counting the attempt (stopping): pending again, due at once; returns how many */
  release(owner: string, ids: readonly string[], now: number): Promise<number>;
  get(id: string): Promise<JobRecord | undefined>;
  /** newest first (createdAt, then id) */
  list(filter: JobFilter, offset: number, limit: number): Promise<JobRecord[]>;
  count(filter: JobFilter): Promise<number>;
  /** a dead job pending again at `now` with attempts 0 (its last error kept); undefined when it is not dead */
  retry(id: string, now: number): Promise<JobRecord | undefined>;
  stats(now: number): Promise<JobStats>;
  /** the earliest time a job of `kinds` becomes due (pending runAt, or a running lease's end); null: none */
  nextDue(kinds: readonly string[]): Promise<number | null>;
  /** deletes done jobs last updated before `before`; returns how many */
  purgeDone(before: number): Promise<number>;
}
