import type { ReplicaEvent } from "../types";

/**
 * Routing changes on the wire: short arrays, since a busy instance sends one per finished
 * attempt. Every clock reading is the sending instance's, so all instances compute the same
 * deadlines and file a record in the same time bucket.
 *
 *   ["cf", endpointId, at, retryAfterMs | null]        circuit: a failure
 *   ["cs", endpointId]                                  circuit: a success that closed it
 *   ["cp", endpointId, at]                              circuit: a probe claimed (half-open)
 *   ["sr", endpointId, ok 1|0, latencyMs | null, throughput | null, at]   live stats record
 *   ["sa", sessionKey, endpointId, at]                  session affinity pin
 */
export type EventHandlers = Record<string, (event: ReplicaEvent) => void>;

/** readers for fields of another instance's event: a malformed one is skipped, never applied half */
export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
export const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
export const numOrNull = (v: unknown): number | null | undefined => (v === null ? null : num(v));

/** parses a kept JSON value as an object, undefined when it is not one */
export function parseObject(value: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** kept keys name what they hold by a readable prefix and an escaped id (ids may hold any character) */
export const keptKey = (kind: string, id: string) => `${kind}:${encodeURIComponent(id)}`;

export function idOfKeptKey(kind: string, key: string): string | undefined {
  if (!key.startsWith(`${kind}:`)) return undefined;
  try {
    return decodeURIComponent(key.slice(kind.length + 1));
  } catch {
    return undefined;
  }
}
