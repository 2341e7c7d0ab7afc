import type { LiveStats } from "../../catalog/live-stats";
import type { CircuitBreakers } from "../../gateway/routing/circuit";
import type { SessionAffinity } from "../../gateway/routing/session-affinity";
import type { Replica } from "../types";
import { replicateCircuits } from "./circuits";
import { replicateSessions } from "./sessions";
import { replicateStats } from "./stats";

export type ReplicatedParts = { stats: LiveStats; circuits: CircuitBreakers; sessions: SessionAffinity };

/**
 * Joins one instance's routing state to the others through `replica`: local changes apply at
 * once and are queued for the others; their changes are applied to the local copy without
 * being sent again. Routing keeps reading the local copy synchronously. Returns a detach
 * function (afterwards the state is this instance's alone again).
 */
export function replicateRouter(
  parts: ReplicatedParts,
  replica: Replica,
  opts: { clock: () => number; sessionTtlMs: number; sessionCapacity: number },
): () => void {
  const circuits = replicateCircuits(parts.circuits, replica, opts.clock);
  const stats = replicateStats(parts.stats, replica, opts.clock);
  const sessions = replicateSessions(parts.sessions, replica, { ttlMs: opts.sessionTtlMs, capacity: opts.sessionCapacity });
  const handlers = new Map(Object.entries({ ...circuits.handlers, ...stats.handlers, ...sessions.handlers }));
  const detach = replica.listen({
    events(events) {
      // an unknown kind comes from a newer instance during a rolling upgrade: skipped
      for (const e of events) handlers.get(String(e[0]))?.(e);
    },
    restore(kept) {
      circuits.restore(kept);
      sessions.restore(kept);
    },
  });
  return () => {
    detach();
    parts.circuits.observe(undefined);
    parts.stats.observe(undefined);
    parts.sessions.observe(undefined);
  };
}
