import type { ObservedGeneration } from "../contract";
import { oncePer } from "../once-per";

/**
 * Trace and span ids of one generation's trace. Every id is derived from the generation (or the
 * caller's `trace` ids), never random: a retried delivery sends the same spans, which receivers
 * then merge instead of counting twice.
 */

const TRACE_ID = /^[0-9a-f]{32}$/i;
const SPAN_ID = /^[0-9a-f]{16}$/i;
const ZEROS = /^0+$/;

/** The first `bytes` bytes of sha256(text), as lowercase hex. */
function digestHex(text: string, bytes: number): string {
  return new Bun.CryptoHasher("sha256")
    .update(text)
    .digest("hex")
    .slice(0, bytes * 2);
}

const traceValue = (g: ObservedGeneration, key: string): string | undefined => {
  const value = g.trace?.[key];
  return typeof value === "string" && value !== "" ? value : undefined;
};

/**
 * The caller's `trace.trace_id` when it is already an OTLP trace id (32 hex, not all zero);
 * otherwise 16 bytes derived from it, so the generations that share it still share a trace; with
 * none, derived from the generation id.
 */
export const traceIdOf = oncePer((g: ObservedGeneration): string => {
  const given = traceValue(g, "trace_id");
  if (given !== undefined && TRACE_ID.test(given) && !ZEROS.test(given)) return given.toLowerCase();
  return digestHex(given === undefined ? `generation:${g.id}` : `trace:${given}`, 16);
});

/** `trace.parent_span_id` as an OTLP span id: as given when 16 hex, else derived from it; undefined without one. */
export function parentSpanIdOf(g: ObservedGeneration): string | undefined {
  const given = traceValue(g, "parent_span_id");
  if (given === undefined) return undefined;
  if (SPAN_ID.test(given) && !ZEROS.test(given)) return given.toLowerCase();
  return digestHex(`span:${given}`, 8);
}

/** The span ids derived so far for a generation, by role. */
const spanIdsOf = oncePer((_g: ObservedGeneration) => new Map<string, string>());

/** The id of one span the gateway makes for the generation: `generation`, `wrapper`, `attempt:<n>`. */
export function spanIdOf(g: ObservedGeneration, role: string): string {
  const ids = spanIdsOf(g);
  let id = ids.get(role);
  if (id === undefined) ids.set(role, (id = digestHex(`${g.id}:${role}`, 8)));
  return id;
}
