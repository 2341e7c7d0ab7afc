/**
 * What several gateway instances share (DESIGN.md "shared-state/"): in memory for one instance,
 * through Redis (REDIS_URL) for several. Routing keeps reading its figures synchronously from a
 * local copy; Redis carries every change to the other instances within milliseconds.
 */

import type { Logger } from "../logger";
import type { FailureCounters } from "./failure-counters/types";
import type { RateCounters } from "./rate-counters/types";

/** Read caches in front of the store, cleared on every instance when one of them writes. */
export type CacheTopic = "keys" | "workspaces" | "byok" | "users" | "budgets" | "destinations" | "guardrails";

export interface InvalidationBus {
  /** tells every instance (this one included) that cached values of `topic` are stale */
  publish(topic: CacheTopic): void;
  /** called for every publish of any instance; returns an unsubscribe function */
  subscribe(listener: (topic: CacheTopic) => void): () => void;
}

/**
 * One change of routing state, as a short JSON array whose first element names its kind
 * (see router/events.ts). The transport does not look inside.
 */
export type ReplicaEvent = readonly (string | number | null)[];

/** What a replica delivers to the routing state of this instance. */
export interface ReplicaListener {
  /** changes another instance made, in the order it made them (never this instance's own) */
  events(events: readonly ReplicaEvent[]): void;
  /**
   * What instances kept for late joiners (`keep`): once at start, and again after Redis comes
   * back from an outage, since changes made meanwhile never reached this instance.
   */
  restore(kept: ReadonlyMap<string, string>): void;
}

/**
 * How the routing state of one instance reaches the others. Every call is synchronous and
 * cheap: changes are queued and go out together once per event-loop turn; nothing waits on
 * the network, and an unreachable Redis drops them (each instance keeps its own copy).
 */
export interface Replica {
  /** queues a change for the other instances */
  send(event: ReplicaEvent): void;
  /** keeps `value` under `key` for `ttlMs`, for instances that start later */
  keep(key: string, value: string, ttlMs: number): void;
  /** forgets what `keep` kept under `key` */
  drop(key: string): void;
  /**
   * One listener per instance (its router state). It hears what was kept at start at once,
   * then the changes that arrived since, then every later change. Returns a detach function.
   */
  listen(listener: ReplicaListener): () => void;
}

export interface SharedState {
  /** memory: one instance, nothing leaves the process; redis: several instances */
  readonly kind: "memory" | "redis";
  /** tells this instance's own messages from the others' */
  readonly instanceId: string;
  readonly bus: InvalidationBus;
  readonly replica: Replica;
  /** rate-limit counters: this instance's own in memory, shared through Redis */
  readonly rates: RateCounters;
  /** failure counters (sign-in throttling): this instance's own in memory, shared through Redis */
  readonly failures: FailureCounters;
  /** Redis reachable (always true in memory); a failed check never throws */
  ready(): Promise<boolean>;
  /** sends what is queued, then closes the connections */
  close(): Promise<void>;
}

export type SharedStateOptions = {
  /** without it: in memory, for one instance */
  redisUrl?: string;
  /** starts every Redis key and channel, so deployments (and test runs) sharing a Redis never meet */
  prefix: string;
  instanceId: string;
  logger: Logger;
  /** how long a concurrency slot outlives an instance that stopped renewing it (Redis); default 2 minutes */
  rateLeaseMs?: number;
  /** epoch ms, for slot leases; default Date.now */
  clock?: () => number;
};
