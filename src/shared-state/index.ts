import { createMemorySharedState } from "./memory";
import { createRedisSharedState } from "./redis";
import type { SharedState, SharedStateOptions } from "./types";

const DEFAULT_RATE_LEASE_MS = 120_000;

export type { FailureCount, FailureCounters, FailureRecord } from "./failure-counters/types";
export type { RateAcquire, RateCounters, RateLimits, RateRelease, RateUse, RateVerdict } from "./rate-counters/types";
export type { CacheTopic, InvalidationBus, Replica, ReplicaEvent, ReplicaListener, SharedState, SharedStateOptions } from "./types";

/**
 * What the instances of one deployment share. Without `redisUrl`: in memory, for one instance.
 * With it: through Redis; resolves even when Redis is unreachable (the instance then works
 * alone until it is back; `ready()` says false meanwhile).
 */
export async function createSharedState(opts: SharedStateOptions): Promise<SharedState> {
  if (!opts.redisUrl) return createMemorySharedState(opts.instanceId, opts.logger);
  return createRedisSharedState({
    url: opts.redisUrl,
    prefix: opts.prefix,
    instanceId: opts.instanceId,
    logger: opts.logger,
    rateLeaseMs: opts.rateLeaseMs ?? DEFAULT_RATE_LEASE_MS,
    clock: opts.clock ?? Date.now,
  });
}
