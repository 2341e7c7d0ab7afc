import type { Static } from "elysia";
import { GatewayError } from "../../errors";
import type { JobRecord, JobStats, JobStore } from "../../store/job-store";
import { isoOrNull, isoTime } from "../../time";
import type { JobData, JobStatsResponse, ListJobsQuery } from "./model";

const DEFAULT_PAGE = 100;

export function presentJob(job: JobRecord): Static<typeof JobData> {
  return {
    id: job.id,
    kind: job.kind,
    key: job.key,
    payload: job.payload,
    state: job.state,
    run_at: isoTime(job.runAt),
    attempts: job.attempts,
    lease_owner: job.leaseOwner,
    lease_expires_at: isoOrNull(job.leaseExpiresAt),
    last_error: job.lastError,
    created_at: isoTime(job.createdAt),
    updated_at: isoTime(job.updatedAt),
  };
}

export async function listJobs(jobs: JobStore, query: Static<typeof ListJobsQuery>) {
  const filter = { state: query.state, kind: query.kind };
  const [page, total] = await Promise.all([jobs.list(filter, query.offset ?? 0, query.limit ?? DEFAULT_PAGE), jobs.count(filter)]);
  return { data: page.map(presentJob), total_count: total };
}

export async function getJob(jobs: JobStore, id: string) {
  const job = await jobs.get(id);
  if (!job) throw new GatewayError(404, `Job '${id}' not found`);
  return { data: presentJob(job) };
}

/** A dead job runs again now, with a fresh set of attempts. */
export async function retryJob(jobs: JobStore, id: string, now: number) {
  const retried = await jobs.retry(id, now);
  if (retried) return { data: presentJob(retried) };
  const job = await jobs.get(id);
  if (!job) throw new GatewayError(404, `Job '${id}' not found`);
  throw new GatewayError(409, `Job '${id}' is ${job.state}; only dead jobs can be retried`, { state: job.state });
}

export function presentStats(stats: JobStats, now: number): Static<typeof JobStatsResponse>["data"] {
  const oldest = stats.oldestDue.map((o) => ({ kind: o.kind, age_seconds: Math.max(0, now - o.runAt) / 1000 }));
  return {
    queues: stats.queues,
    outcomes: stats.outcomes,
    oldest_pending: oldest,
    oldest_pending_age_seconds: oldest.reduce((max, o) => Math.max(max, o.age_seconds), 0),
  };
}

export async function jobStats(jobs: JobStore, now: number) {
  return { data: presentStats(await jobs.stats(now), now) };
}
