import type { SessionAffinity } from "../../gateway/routing/session-affinity";
import type { Replica } from "../types";
import { type EventHandlers, idOfKeptKey, keptKey, num, parseObject, str } from "./events";

const KIND = "session";
/**
 * A session's requests re-pin it each time, mostly to the same endpoint. Its kept key is
 * rewritten only when the endpoint changes or once this often: one SET per request would
 * cost more than everything else replication does. A late joiner may thus see a pin expire
 * up to this much early; the session's next request pins it again anyway.
 */
const KEEP_REFRESH_MS = 60_000;

/**
 * Session affinity across instances: a pin made on one instance is sent to the others and
 * kept in Redis for the affinity's lifetime, so a session's next request stays on its
 * endpoint whichever instance the load balancer picks, including one started since.
 */
export function replicateSessions(
  sessions: SessionAffinity,
  replica: Replica,
  opts: { ttlMs: number; capacity: number },
): { handlers: EventHandlers; restore(kept: ReadonlyMap<string, string>): void } {
  // what was last kept per session, bounded like the affinity itself (oldest first out)
  const lastKept = new Map<string, { endpointId: string; at: number }>();
  sessions.observe((key, endpointId, at) => {
    replica.send(["sa", key, endpointId, at]);
    const last = lastKept.get(key);
    if (last && last.endpointId === endpointId && at - last.at < KEEP_REFRESH_MS) return;
    lastKept.delete(key);
    lastKept.set(key, { endpointId, at });
    if (lastKept.size > opts.capacity) lastKept.delete(lastKept.keys().next().value!);
    replica.keep(keptKey(KIND, key), JSON.stringify({ e: endpointId, at }), opts.ttlMs);
  });

  const handlers: EventHandlers = {
    sa: (e) => {
      const key = str(e[1]);
      const endpointId = str(e[2]);
      const at = num(e[3]);
      if (key !== undefined && endpointId !== undefined && at !== undefined) sessions.apply(key, endpointId, at);
    },
  };

  const restore = (kept: ReadonlyMap<string, string>) => {
    const pins: Array<{ key: string; endpointId: string; at: number }> = [];
    for (const [name, value] of kept) {
      const key = idOfKeptKey(KIND, name);
      const o = key === undefined ? undefined : parseObject(value);
      const endpointId = str(o?.e);
      const at = num(o?.at);
      if (key !== undefined && endpointId !== undefined && at !== undefined) pins.push({ key, endpointId, at });
    }
    // oldest first: past the affinity's capacity the most recent pins are the ones it keeps
    pins.sort((a, b) => a.at - b.at);
    for (const p of pins) sessions.apply(p.key, p.endpointId, p.at);
  };

  return { handlers, restore };
}
