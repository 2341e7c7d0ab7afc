import type { JobRecord } from "../store/job-store";

export type JobRun = {
  job: JobRecord;
  /** aborted when the lease is lost or the worker stops: stop and let the job run again elsewhere */
  signal: AbortSignal;
};

/**
 * One kind of job: what runs it and how often it may fail. Handlers must be idempotent: a job
 * runs at least once, and again when the process holding its lease dies before it finishes.
 */
export type JobKind = {
  kind: string;
  /** attempts before the job is dead (default: one per backoff step, plus the first) */
  maxAttempts?: number;
  /** recurring: one job of this kind (keyed by the kind) that runs again this long after each success */
  everyMs?: number;
  /**
   * Done, the job's payload is replaced by null: for payloads that carry content (a forwarded
   * generation's prompt and completion), kept a week with the done job otherwise. A dead job
   * keeps its payload, to be retried.
   */
  dropPayloadWhenDone?: boolean;
  run(payload: unknown, run: JobRun): Promise<void>;
};

export type JobRegistry = ReadonlyMap<string, JobKind>;

/** kind -> handler; a kind registered twice is a programming error caught at start. */
export function jobRegistry(kinds: readonly JobKind[]): JobRegistry {
  const registry = new Map<string, JobKind>();
  for (const kind of kinds) {
    if (registry.has(kind.kind)) throw new Error(`job kind '${kind.kind}' is registered twice`);
    registry.set(kind.kind, kind);
  }
  return registry;
}
