import type { ObservedAttempt, ObservedGeneration } from "../contract";
import { derivedHex, derivedUuidV7 } from "./ids";

/** The `trace` keys with a meaning of their own (OpenRouter's TraceConfig); every other key is custom metadata. */
const SPECIAL_TRACE_KEYS = new Set(["trace_id", "trace_name", "span_name", "generation_name", "parent_span_id"]);

export type PlannedSpan = Readonly<{
  /** the seed every format derives this span's ids from */
  key: string;
  parentKey: string | null;
  name: string;
  role: "wrapper" | "generation" | "attempt";
  startedAt: number;
  endedAt: number;
  attempt: ObservedAttempt | null;
}>;

/**
 * The spans one generation becomes, as OpenRouter shapes them: an optional `span_name` wrapper,
 * the generation, and one child per provider attempt. Formats with spans map this plan to their
 * own ids and fields, so they all agree on names, nesting and times.
 */
export type TracePlan = Readonly<{
  /** the caller's `trace.trace_id` when given (several generations share it), else the generation id */
  traceKey: string;
  callerTraceId: string | null;
  /** the caller's own span: not one we send, so it is kept as metadata, never as a parent */
  callerParentSpanId: string | null;
  traceName: string;
  generationName: string;
  /** the root of this generation's spans: the wrapper when there is one, else the generation */
  top: PlannedSpan;
  generation: PlannedSpan;
  attempts: readonly PlannedSpan[];
  /** top first, then the generation (when not the top), then the attempts */
  spans: readonly PlannedSpan[];
  /** the `trace` object less its special keys */
  custom: Readonly<Record<string, unknown>>;
}>;

const textField = (trace: ObservedGeneration["trace"], key: string): string | null => {
  const value = trace?.[key];
  return typeof value === "string" && value.trim() !== "" ? value : null;
};

export function planTrace(g: ObservedGeneration): TracePlan {
  const callerTraceId = textField(g.trace, "trace_id");
  const spanName = textField(g.trace, "span_name");
  const traceName = textField(g.trace, "trace_name") ?? g.model;
  const generationName = textField(g.trace, "generation_name") ?? g.model;
  const wrapper: PlannedSpan | null = spanName
    ? { key: `${g.id}:wrapper`, parentKey: null, name: spanName, role: "wrapper", startedAt: g.startedAt, endedAt: g.endedAt, attempt: null }
    : null;
  const generation: PlannedSpan = {
    key: `${g.id}:generation`,
    parentKey: wrapper?.key ?? null,
    name: generationName,
    role: "generation",
    startedAt: g.startedAt,
    endedAt: g.endedAt,
    attempt: null,
  };
  const attempts = g.attempts.map(
    (attempt, i): PlannedSpan => ({
      key: `${g.id}:attempt:${i + 1}`,
      parentKey: generation.key,
      name: `provider attempt ${i + 1}: ${attempt.provider}`,
      role: "attempt",
      startedAt: attempt.startedAt,
      endedAt: attempt.startedAt + attempt.latencyMs,
      attempt,
    }),
  );
  const custom = Object.fromEntries(Object.entries(g.trace ?? {}).filter(([key]) => !SPECIAL_TRACE_KEYS.has(key)));
  return {
    traceKey: callerTraceId ?? g.id,
    callerTraceId,
    callerParentSpanId: textField(g.trace, "parent_span_id"),
    traceName,
    generationName,
    top: wrapper ?? generation,
    generation,
    attempts,
    spans: [...(wrapper ? [wrapper] : []), generation, ...attempts],
    custom,
  };
}

/** A 32-hex trace id: the caller's when it already is one (so it matches their OTLP traces), else derived. */
export function traceHexId(plan: TracePlan): string {
  if (plan.callerTraceId && /^[0-9a-f]{32}$/i.test(plan.callerTraceId)) return plan.callerTraceId.toLowerCase();
  return derivedHex(16, "trace", plan.traceKey);
}

export const spanHexId = (span: PlannedSpan) => derivedHex(8, "span", span.key);

const DAY_MS = 86_400_000;

/**
 * A version 7 trace UUID. Its time must be the same for every generation of a caller's trace, so
 * it is the UTC day the generation started (a trace that runs past midnight splits in two);
 * a trace of its own takes the generation's start.
 */
export function traceUuidV7(plan: TracePlan, generation: ObservedGeneration): string {
  if (plan.callerTraceId && /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.test(plan.callerTraceId))
    return plan.callerTraceId.toLowerCase();
  const at = plan.callerTraceId ? Math.floor(generation.startedAt / DAY_MS) * DAY_MS : generation.startedAt;
  return derivedUuidV7(at, "trace", plan.traceKey);
}

export const spanUuidV7 = (span: PlannedSpan) => derivedUuidV7(span.startedAt, "span", span.key);
