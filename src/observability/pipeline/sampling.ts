import type { ObservedGeneration } from "../contract";

const TWO_TO_64 = 2 ** 64;

/**
 * What keeps a session whole: the request's session_id, else its `trace.trace_id` (a multi-call
 * trace), else the generation itself.
 */
export function samplingKey(g: Pick<ObservedGeneration, "id" | "sessionId" | "trace">): string {
  const traceId = g.trace?.trace_id;
  return g.sessionId ?? (typeof traceId === "string" && traceId !== "" ? traceId : g.id);
}

/** The first 8 bytes of sha256(scope ‖ key) as a fraction of 2^64: uniform in [0, 1), the same every time. */
export function sampleFraction(scope: string, key: string): number {
  const digest = new Bun.CryptoHasher("sha256").update(scope + key).digest();
  return Number(digest.readBigUInt64BE(0)) / TWO_TO_64;
}

/**
 * Deterministic sampling per destination and session: every generation of a session gets the
 * same decision for one destination, and another destination decides on its own (the hash
 * includes the destination's id), as OpenRouter's Broadcast does.
 */
export function sampledIn(destinationId: string, g: Pick<ObservedGeneration, "id" | "sessionId" | "trace">, rate: number): boolean {
  if (rate >= 1) return true;
  return sampleFraction(destinationId, samplingKey(g)) < rate;
}
