import type { CircuitBreakers, CircuitState } from "../../gateway/routing/circuit";
import type { Replica } from "../types";
import { type EventHandlers, idOfKeptKey, keptKey, num, numOrNull, parseObject, str } from "./events";

const KIND = "circuit";
/**
 * How long a late joiner still learns of a circuit after its cooldown and Retry-After hold
 * ran out: it stays half-open (one probe at a time) until a request succeeds, however long
 * that takes, and the instances running meanwhile remember it as long.
 */
const HALF_OPEN_MEMORY_MS = 60 * 60_000;

/**
 * Circuit changes across instances: every failure, closing success and probe claim goes to
 * the others, so failures seen anywhere add up to one count and a circuit opened on one
 * instance is open on all; while a circuit is not healthy its state is also kept in Redis
 * for instances that start later, and forgotten when a success closes it.
 */
export function replicateCircuits(
  circuits: CircuitBreakers,
  replica: Replica,
  clock: () => number,
): { handlers: EventHandlers; restore(kept: ReadonlyMap<string, string>): void } {
  const keepState = (id: string, now: number) => {
    const s = circuits.snapshot(id);
    if (!s) return;
    const hold = Math.max(s.openUntil, s.retryAfterUntil) - now;
    replica.keep(keptKey(KIND, id), JSON.stringify(s), Math.max(0, hold) + HALF_OPEN_MEMORY_MS);
  };

  circuits.observe({
    failure(id, at, retryAfterMs) {
      replica.send(["cf", id, at, retryAfterMs && retryAfterMs > 0 ? retryAfterMs : null]);
      if (circuits.health(id) !== "healthy") keepState(id, at);
    },
    success(id) {
      replica.send(["cs", id]);
      replica.drop(keptKey(KIND, id));
    },
    probe(id, at) {
      replica.send(["cp", id, at]);
      keepState(id, at);
    },
  });

  const handlers: EventHandlers = {
    cf: (e) => {
      const id = str(e[1]);
      const at = num(e[2]);
      const retryAfterMs = numOrNull(e[3]);
      if (id !== undefined && at !== undefined && retryAfterMs !== undefined) circuits.applyFailure(id, at, retryAfterMs ?? undefined);
    },
    cs: (e) => {
      const id = str(e[1]);
      if (id !== undefined) circuits.applySuccess(id);
    },
    cp: (e) => {
      const id = str(e[1]);
      const at = num(e[2]);
      if (id !== undefined && at !== undefined) circuits.applyProbe(id, at);
    },
  };

  const restore = (kept: ReadonlyMap<string, string>) => {
    const now = clock();
    for (const [key, value] of kept) {
      const id = idOfKeptKey(KIND, key);
      const state = id === undefined ? undefined : circuitState(value);
      // the TTL already bounds what is read; the clock check covers an instance whose clock runs ahead
      if (id !== undefined && state && now - Math.max(state.openUntil, state.retryAfterUntil) < HALF_OPEN_MEMORY_MS) circuits.restore(id, state);
    }
  };

  return { handlers, restore };
}

function circuitState(value: string): CircuitState | undefined {
  const o = parseObject(value);
  if (!o) return undefined;
  const consecutive = num(o.consecutive);
  const openUntil = num(o.openUntil);
  const retryAfterUntil = num(o.retryAfterUntil);
  if (consecutive === undefined || openUntil === undefined || retryAfterUntil === undefined) return undefined;
  return { consecutive, openUntil, retryAfterUntil };
}
