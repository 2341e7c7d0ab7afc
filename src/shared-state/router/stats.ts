import type { LiveStats } from "../../catalog/live-stats";
import type { Replica } from "../types";
import { type EventHandlers, num, numOrNull, str } from "./events";

/**
 * A record filed far from this instance's clock would land in a time bucket of the ring that
 * holds another period and wipe it; another instance's clock is never that far off unless
 * it is wrong, so such a record is dropped. Records filed that far in the past here (a replay
 * of the database that forgot `quietly`) are not sent at all: the others would drop them.
 */
const MAX_CLOCK_DISTANCE_MS = 10 * 60_000;

/**
 * Live stats across instances: every record goes to the others, which file it under the
 * sender's clock reading, so all instances hold the same figures. Nothing is kept for late
 * joiners: an instance rebuilds its figures from the generation records at start.
 */
export function replicateStats(stats: LiveStats, replica: Replica, clock: () => number): { handlers: EventHandlers } {
  stats.observe((id, ok, latencyMs, throughput, at) => {
    if (clock() - at <= MAX_CLOCK_DISTANCE_MS) replica.send(["sr", id, ok ? 1 : 0, latencyMs, throughput, at]);
  });
  return {
    handlers: {
      sr: (e) => {
        const id = str(e[1]);
        const latencyMs = numOrNull(e[3]);
        const throughput = numOrNull(e[4]);
        const at = num(e[5]);
        if (id === undefined || latencyMs === undefined || throughput === undefined || at === undefined) return;
        if (Math.abs(clock() - at) > MAX_CLOCK_DISTANCE_MS) return;
        stats.apply(id, e[2] === 1, latencyMs, throughput, at);
      },
    },
  };
}
