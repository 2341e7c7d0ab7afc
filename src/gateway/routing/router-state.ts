import type { Config } from "../../config";
import { LiveStats } from "../../catalog/live-stats";
import { CircuitBreakers } from "./circuit";
import { SessionAffinity } from "./session-affinity";

/** In-memory routing state of this process: live figures, circuits, session affinity. */
export type RouterState = {
  stats: LiveStats;
  circuits: CircuitBreakers;
  sessions: SessionAffinity;
  random: () => number;
};

export function createRouterState(config: Pick<Config, "routing">, clock: () => number): RouterState {
  return {
    stats: new LiveStats(clock),
    circuits: new CircuitBreakers(config.routing.circuitFailures, config.routing.circuitCooldownMs, clock),
    sessions: new SessionAffinity(10_000, 60 * 60_000, clock),
    random: Math.random,
  };
}
