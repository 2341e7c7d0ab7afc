import type { ObservedGeneration } from "../contract";

/** The keys of a request's `trace` object that shape the trace; every other key is metadata. */
const SHAPING_KEYS = new Set(["trace_id", "trace_name", "span_name", "generation_name", "parent_span_id"]);

export type TraceFields = {
  /** `trace.trace_name`, else the model slug */
  traceName: string;
  /** `trace.span_name`: a wrapper span between the trace and the generation */
  spanName: string | undefined;
  /** `trace.generation_name`: the generation span's own name */
  generationName: string | undefined;
  /** the other keys of `trace`, as sent (and `trace_id` when it was not an OTLP id, so it is not lost) */
  metadata: Record<string, unknown>;
};

const text = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value : undefined);

export function traceFieldsOf(g: ObservedGeneration): TraceFields {
  const trace = g.trace ?? {};
  const metadata: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(trace)) if (!SHAPING_KEYS.has(key)) metadata[key] = value;
  const traceId = text(trace.trace_id);
  if (traceId !== undefined && !/^[0-9a-f]{32}$/i.test(traceId)) metadata.trace_id = traceId;
  return {
    traceName: text(trace.trace_name) ?? g.model,
    spanName: text(trace.span_name),
    generationName: text(trace.generation_name),
    metadata,
  };
}

/** `prefix.<key>` for each metadata key: the shape receivers filter on (`trace.metadata.*`, `langfuse.trace.metadata.*`). */
export function prefixed(prefix: string, metadata: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(metadata)) out[`${prefix}.${key}`] = value;
  return out;
}
