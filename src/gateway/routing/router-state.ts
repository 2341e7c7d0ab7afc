import { LiveStats } from "../../catalog/live-stats";
import type { Config } from "../../config";
import { replicateRouter } from "../../shared-state/router/replicate-router";
import type { SharedState } from "../../shared-state/types";
import { CircuitBreakers } from "./circuit";
import { SessionAffinity } from "./session-affinity";

const SESSION_CAPACITY = 10_000;
const SESSION_TTL_MS = 60 * 60_000;

/**
 * Routing state of this process: live figures, circuits, session affinity. Routing reads it
 * synchronously; with a Redis `shared`, what any instance observes reaches the others.
 */
export type RouterState = {
  stats: LiveStats;
  circuits: CircuitBreakers;
  sessions: SessionAffinity;
  random: () => number;
};

export function createRouterState(config: Pick<Config, "routing">, clock: () => number, shared?: SharedState): RouterState {
  const state: RouterState = {
    stats: new LiveStats(clock),
    circuits: new CircuitBreakers(config.routing.circuitFailures, config.routing.circuitCooldownMs, clock),
    sessions: new SessionAffinity(SESSION_CAPACITY, SESSION_TTL_MS, clock),
    random: Math.random,
  };
  // one instance alone has nobody to tell: no observers, so the hot path stays as it was
  if (shared && shared.kind !== "memory") replicateRouter(state, shared.replica, { clock, sessionTtlMs: SESSION_TTL_MS, sessionCapacity: SESSION_CAPACITY });
  return state;
}
