import type { Destination, ObservedAttempt, ObservedGeneration } from "../contract";
import { type Attributes, encodeAttributes } from "./attribute-value";
import { generationAttributes } from "./generation-attributes";
import { parentSpanIdOf, spanIdOf, traceIdOf } from "./ids";
import { operationShapeOf } from "./operation";
import type { OtlpProfile } from "./profile";
import { traceFieldsOf } from "./trace-fields";
import { MAX_ATTRIBUTE_CHARS, truncateAttributes } from "./truncate";
import { SPAN_KIND, type Span, type SpanEvent, STATUS_CODE, unixNano } from "./wire";

/**
 * The spans of one generation, OpenRouter's shape: the generation span (`LLM Generation`, kind
 * CLIENT as semconv's inference span) with one child per upstream attempt
 * (`provider attempt N: <provider>`), under an optional `trace.span_name` wrapper, itself under
 * the caller's `trace.parent_span_id`.
 */
export function traceSpans(g: ObservedGeneration, d: Destination, profile: OtlpProfile): Span[] {
  const traceId = traceIdOf(g);
  const fields = traceFieldsOf(g);
  const shape = operationShapeOf(g);
  const cap = Math.min(profile.attributeCap ?? MAX_ATTRIBUTE_CHARS, MAX_ATTRIBUTE_CHARS);
  const everySpan = profile.everySpanAttributes?.(g, d) ?? {};
  const span = (s: Omit<Span, "traceId" | "attributes" | "events"> & { attributes: Attributes }): Span => {
    const { attributes, truncatedKeys } = truncateAttributes({ ...s.attributes, ...everySpan }, cap);
    const events: SpanEvent[] =
      truncatedKeys.length === 0
        ? []
        : [
            {
              timeUnixNano: s.endTimeUnixNano,
              name: "openrouter.trace_truncated",
              attributes: encodeAttributes({ "openrouter.truncated_keys": truncatedKeys }),
            },
          ];
    return { traceId, ...s, attributes: encodeAttributes(attributes), events };
  };
  const start = unixNano(g.startedAt);
  const end = unixNano(Math.max(g.endedAt, g.startedAt));
  const spans: Span[] = [];
  let parent = parentSpanIdOf(g);
  if (fields.spanName !== undefined) {
    const wrapperId = spanIdOf(g, "wrapper");
    spans.push(
      span({
        spanId: wrapperId,
        ...(parent ? { parentSpanId: parent } : {}),
        name: fields.spanName,
        kind: SPAN_KIND.internal,
        startTimeUnixNano: start,
        endTimeUnixNano: end,
        attributes: { "span.type": "span", "trace.name": fields.traceName },
        status: { code: STATUS_CODE.unset },
      }),
    );
    parent = wrapperId;
  }
  const generationId = spanIdOf(g, "generation");
  spans.push(
    span({
      spanId: generationId,
      ...(parent ? { parentSpanId: parent } : {}),
      name: fields.generationName ?? shape.spanName,
      kind: SPAN_KIND.client,
      startTimeUnixNano: start,
      endTimeUnixNano: end,
      attributes: { ...generationAttributes(g, d), ...profile.generationAttributes?.(g, d) },
      status: generationStatus(g),
    }),
  );
  g.attempts.forEach((attempt, i) => spans.push(span(attemptSpan(g, attempt, i + 1, generationId))));
  return spans;
}

function generationStatus(g: ObservedGeneration): Span["status"] {
  if (g.status === "success") return { code: STATUS_CODE.ok };
  if (g.status === "error") return { code: STATUS_CODE.error, message: g.errorMessage ?? "the generation failed" };
  return { code: STATUS_CODE.unset, message: "cancelled by the client" };
}

function attemptSpan(g: ObservedGeneration, attempt: ObservedAttempt, n: number, parentSpanId: string) {
  const failed = attempt.status === 0 || attempt.status >= 400;
  return {
    spanId: spanIdOf(g, `attempt:${n}`),
    parentSpanId,
    name: `provider attempt ${n}: ${attempt.provider}`,
    kind: SPAN_KIND.client,
    startTimeUnixNano: unixNano(attempt.startedAt),
    endTimeUnixNano: unixNano(attempt.startedAt + Math.max(0, attempt.latencyMs)),
    attributes: {
      "span.type": "span",
      "gen_ai.provider.name": attempt.provider,
      "gen_ai.request.model": attempt.model,
      "openrouter.provider_slug": attempt.provider,
      "openrouter.endpoint": attempt.endpoint,
      "openrouter.attempt": n,
      "openrouter.latency_ms": attempt.latencyMs,
      "http.response.status_code": attempt.status === 0 ? undefined : attempt.status,
      "error.type": failed ? (attempt.status === 0 ? "transport" : String(attempt.status)) : undefined,
    },
    status: failed
      ? { code: STATUS_CODE.error, message: attempt.status === 0 ? "no answer" : `upstream answered ${attempt.status}` }
      : { code: STATUS_CODE.ok },
  };
}
