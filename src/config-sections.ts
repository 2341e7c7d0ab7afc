import { type Env, intFromEnv } from "./config-env";
import type { GatewayFile } from "./config-schema";
import { DEFAULT_BACKOFF_SECONDS } from "./jobs/retry-schedule";

/** The sections of gateway.yaml that become settings of their own, defaults filled in and units converted. */

/** video jobs: poll delay growing from pollInitialMs to pollMaxMs, a job not done by deadlineMs fails, outputs kept retentionMs */
export type VideosConfig = { pollInitialMs: number; pollMaxMs: number; deadlineMs: number; retentionMs: number };

/** An S3-compatible bucket; prefix ("" or ending in "/") goes before every key */
export type S3StorageConfig = { bucket: string; endpoint?: string; region?: string; accessKeyId: string; secretAccessKey: string; prefix: string };

/** where video outputs are kept: s3 when set, otherwise `<dataDir>/videos` */
export type StorageConfig = { s3?: S3StorageConfig };

export type ResponseCacheConfig = { enabled: boolean; ttlMs: number; defaultOn: boolean; maxEntryBytes: number };

/**
 * Background jobs: worker threads `serve` starts (WORKERS, default 1; 0: none, another process
 * runs `gateway worker`), retry delays, how long a lease lasts unrenewed, jobs run at once per
 * worker, and the longest an idle worker sleeps before it looks at the queue again.
 */
export type JobsConfig = { workers: number; backoffMs: number[]; leaseMs: number; concurrency: number; pollMs: number };

export function videosConfig(file: GatewayFile): VideosConfig {
  const videos = file.videos ?? {};
  const pollInitialMs = videos.poll_initial_ms ?? 5_000;
  return {
    pollInitialMs,
    pollMaxMs: videos.poll_max_ms ?? Math.max(pollInitialMs, 30_000),
    deadlineMs: Math.round((videos.deadline_minutes ?? 60) * 60_000),
    retentionMs: Math.round((videos.retention_days ?? 7) * 86_400_000),
  };
}

export function storageConfig(file: GatewayFile): StorageConfig {
  const s3 = file.storage?.s3;
  if (!s3) return {};
  const prefix = (s3.prefix ?? "").replace(/^\/+/, "");
  return {
    s3: {
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      region: s3.region,
      accessKeyId: s3.access_key_id,
      secretAccessKey: s3.secret_access_key,
      prefix: prefix === "" || prefix.endsWith("/") ? prefix : `${prefix}/`,
    },
  };
}

/** The response cache when gateway.yaml says nothing of it: off. */
export const DEFAULT_RESPONSE_CACHE: ResponseCacheConfig = { enabled: false, ttlMs: 300_000, defaultOn: false, maxEntryBytes: 1_048_576 };

export function responseCacheConfig(file: GatewayFile): ResponseCacheConfig {
  const cache = file.response_cache ?? {};
  return {
    enabled: cache.enabled ?? DEFAULT_RESPONSE_CACHE.enabled,
    ttlMs: cache.ttl_seconds === undefined ? DEFAULT_RESPONSE_CACHE.ttlMs : cache.ttl_seconds * 1000,
    defaultOn: cache.default === undefined ? DEFAULT_RESPONSE_CACHE.defaultOn : cache.default === "on" || cache.default === true,
    maxEntryBytes: cache.max_entry_bytes ?? DEFAULT_RESPONSE_CACHE.maxEntryBytes,
  };
}

/**
 * Jobs a worker runs at once. Jobs wait on the network (deliveries, webhooks, video polls), so
 * slots are cheap; at 100 ms a delivery, 32 slots forward 320 a second per worker.
 */
const DEFAULT_JOB_CONCURRENCY = 32;

export function jobsConfig(env: Env, file: GatewayFile): JobsConfig {
  const jobs = file.jobs ?? {};
  return {
    workers: intFromEnv(env, "WORKERS", 1, 0, 64),
    backoffMs: (jobs.backoff_seconds ?? DEFAULT_BACKOFF_SECONDS).map((s) => Math.round(s * 1000)),
    leaseMs: Math.round((jobs.lease_seconds ?? 60) * 1000),
    concurrency: jobs.concurrency ?? DEFAULT_JOB_CONCURRENCY,
    pollMs: Math.round((jobs.poll_seconds ?? 2) * 1000),
  };
}
