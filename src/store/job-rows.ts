import type { JobOutcome, JobRecord, JobState, JobStats, NewJob } from "./job-store";

/** A `jobs` row as raw queries of either dialect return it (PostgreSQL int8 as strings). */
export type JobRow = {
  id: string;
  kind: string;
  key: string | null;
  payload: string;
  state: string;
  run_at: number | string;
  attempts: number | string;
  lease_owner: string | null;
  lease_expires_at: number | string | null;
  last_error: string | null;
  created_at: number | string;
  updated_at: number | string;
};

export const JOB_COLUMNS = "id, kind, key, payload, state, run_at, attempts, lease_owner, lease_expires_at, last_error, created_at, updated_at";

export function jobFromRow(row: JobRow): JobRecord {
  return {
    id: row.id,
    kind: row.kind,
    key: row.key,
    payload: JSON.parse(row.payload),
    state: row.state as JobState,
    runAt: Number(row.run_at),
    attempts: Number(row.attempts),
    leaseOwner: row.lease_owner,
    leaseExpiresAt: row.lease_expires_at === null ? null : Number(row.lease_expires_at),
    lastError: row.last_error,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** Leased jobs in the order they were due (RETURNING promises no order). */
export const byRunAt = (jobs: JobRecord[]): JobRecord[] => jobs.sort((a, b) => a.runAt - b.runAt || (a.id < b.id ? -1 : 1));

/** JSON the payload column stores; undefined (not JSON) is stored as null. */
export const payloadText = (payload: unknown): string => JSON.stringify(payload ?? null);

/** The outcome an attempt's end counts as: a failure with no retry left is `dead`. */
export const failureOutcome = (retryAt: number | null): JobOutcome => (retryAt === null ? "dead" : "failed");

/** The columns a new job is stored with (it is never stored leased), and the outcome its storing counts (an attempt that ran unstored). */
export type FirstState = Pick<JobRecord, "state" | "runAt" | "attempts" | "lastError"> & { outcome: JobOutcome | null };

export function firstState(job: NewJob): FirstState {
  const { attempted } = job;
  if (attempted) {
    const { retryAt, error } = attempted;
    return { state: retryAt === null ? "dead" : "pending", runAt: retryAt ?? job.runAt, attempts: 1, lastError: error, outcome: failureOutcome(retryAt) };
  }
  return { state: "pending", runAt: job.runAt, attempts: 0, lastError: null, outcome: null };
}

type StatsRows = {
  queues: Array<{ kind: string; state: string; count: number | string }>;
  outcomes: Array<{ kind: string; outcome: string; count: number | string }>;
  oldest: Array<{ kind: string; run_at: number | string }>;
};

export function statsFromRows(rows: StatsRows): JobStats {
  return {
    queues: rows.queues.map((r) => ({ kind: r.kind, state: r.state as JobState, count: Number(r.count) })),
    outcomes: rows.outcomes.map((r) => ({ kind: r.kind, outcome: r.outcome as JobOutcome, count: Number(r.count) })),
    oldestDue: rows.oldest.map((r) => ({ kind: r.kind, runAt: Number(r.run_at) })),
  };
}
