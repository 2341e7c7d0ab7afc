import { DELIVERED, type Destination, type DestinationSender, type ObservedGeneration, type SenderDeps, type SendOutcome } from "../contract";
import { isTooLarge, sendGenerationItems, sendSplitting } from "../halving-batches";
import { structuredOutput } from "./chat-messages";
import { baseUrlOf, configText } from "./destination-config";
import { generationMetadata, seconds } from "./generation-metadata";
import { derivedUuidV7 } from "./ids";
import { classifyResponse, type HttpResult, postJson } from "./post-json";
import { probeFromResponse } from "./probe-result";
import { destinationHeaders } from "./request-headers";
import { planTrace, spanHexId, type TracePlan, traceHexId } from "./trace-plan";

/** What PostHog allows in `$ai_trace_id` (posthog.com/docs/llm-analytics/manual-capture); another caller trace id is replaced by a derived one. */
const POSTHOG_TRACE_ID = /^[A-Za-z0-9\-_~.@()!':|]{1,200}$/;

type PostHogEvent = { event: string; distinct_id: string; uuid: string; timestamp: string; properties: Record<string, unknown> };

/**
 * PostHog LLM analytics (posthog.com/docs/llm-analytics/manual-capture): `$ai_generation` (`$ai_embedding` for embeddings)
 * events through `POST {endpoint}/batch/`, plus `$ai_trace` when the caller named the trace
 * and `$ai_span` for a `span_name` wrapper. Event uuids are derived, so PostHog dedupes a retry.
 */
export const posthogSender: DestinationSender = {
  type: "posthog",
  configKeys: [
    { key: "apiKey", required: true, secret: true },
    { key: "endpoint", required: false, default: "https://us.i.posthog.com", url: true },
  ],
  // capture accepts any key and checks later, and refuses an empty batch; the flags endpoint checks the key at once and records no event
  async probe(destination, deps) {
    const url = `${baseUrlOf(destination, "endpoint")}/decide/?v=3`;
    const body = JSON.stringify({ api_key: configText(destination, "apiKey"), distinct_id: "model-gateway-connection-test" });
    return probeFromResponse(await deps.http({ url, method: "POST", headers: destinationHeaders(destination, {}), body }), "the project");
  },
  // one generation's events halved on a 413, down to single events (a retry comes this way)
  async send(generation, destination, deps) {
    const events = posthogEvents(generation, destination);
    const outcomes = await sendSplitting(
      events,
      [{ start: 0, end: events.length }],
      batchPoster(destination, deps),
      (result) => classifyEvents(result, deps.clock()),
      isTooLarge,
    );
    return outcomes.find((outcome) => outcome.kind !== "delivered") ?? DELIVERED;
  },
  // a drain's generations together, halved between generations (sendGenerationItems)
  sendMany: (generations, destination, deps) =>
    sendGenerationItems(
      generations.map((g) => posthogEvents(g, destination)),
      batchPoster(destination, deps),
      (result) => classifyEvents(result, deps.clock()),
    ),
};

/** POSTs events to `/batch/` with the project key. */
function batchPoster(destination: Destination, deps: SenderDeps): (batch: readonly PostHogEvent[]) => Promise<HttpResult> {
  const url = `${baseUrlOf(destination, "endpoint")}/batch/`;
  const apiKey = configText(destination, "apiKey");
  const headers = destinationHeaders(destination, {});
  return (batch) => postJson(deps, url, headers, { api_key: apiKey, batch, sent_at: new Date(deps.clock()).toISOString() });
}

/** A 413 for a batch of one event: that event alone is larger than PostHog takes, and always will be. */
function classifyEvents(result: HttpResult, now: number): SendOutcome {
  if (result.kind === "response" && result.status === 413) return { kind: "failed", reason: "destination answered 413: one event is larger than it accepts" };
  return classifyResponse(result, now);
}

function posthogTraceId(plan: TracePlan): string {
  return plan.callerTraceId && POSTHOG_TRACE_ID.test(plan.callerTraceId) ? plan.callerTraceId : traceHexId(plan);
}

export function posthogEvents(g: ObservedGeneration, destination: Destination): PostHogEvent[] {
  const plan = planTrace(g);
  const traceId = posthogTraceId(plan);
  // without a user, the trace is the "person", and PostHog is told not to make a profile of it
  const person = g.externalUser ? { distinct_id: g.externalUser, identity: {} } : { distinct_id: traceId, identity: { $process_person_profile: false } };
  const event = (name: string, key: string, at: number, properties: Record<string, unknown>): PostHogEvent => ({
    event: name,
    distinct_id: person.distinct_id,
    uuid: derivedUuidV7(at, "posthog", key),
    timestamp: new Date(at).toISOString(),
    properties: { ...person.identity, $ai_trace_id: traceId, ...(g.sessionId ? { $ai_session_id: g.sessionId } : {}), $ai_lib: "model-gateway", ...properties },
  });
  const parentId = plan.top === plan.generation ? traceId : spanHexId(plan.top);
  const events = [
    event(
      g.operation === "embeddings" ? "$ai_embedding" : "$ai_generation",
      plan.generation.key,
      g.endedAt,
      generationProperties(g, destination, plan, parentId),
    ),
  ];
  if (plan.top !== plan.generation) {
    events.push(
      event("$ai_span", plan.top.key, g.endedAt, {
        $ai_span_id: spanHexId(plan.top),
        $ai_span_name: plan.top.name,
        $ai_parent_id: traceId,
        $ai_latency: seconds(g.endedAt - g.startedAt),
      }),
    );
  }
  if (typeof g.trace?.trace_name === "string") {
    events.push(event("$ai_trace", `${plan.traceKey}:trace`, g.endedAt, { $ai_trace_name: plan.traceName, ...plan.custom }));
  }
  return events;
}

function generationProperties(g: ObservedGeneration, destination: Destination, plan: TracePlan, parentId: string): Record<string, unknown> {
  const last = g.attempts.at(-1);
  const properties: Record<string, unknown> = {
    ...generationMetadata(g, destination, plan),
    $ai_span_id: spanHexId(plan.generation),
    $ai_span_name: plan.generationName,
    $ai_parent_id: parentId,
    $ai_model: g.model,
    $ai_provider: g.providerSlug,
    $ai_input_tokens: g.tokens.prompt,
    $ai_output_tokens: g.tokens.completion,
    $ai_cache_read_input_tokens: g.tokens.cached,
    $ai_cache_creation_input_tokens: g.tokens.cacheWrite,
    $ai_reasoning_tokens: g.tokens.reasoning,
    $ai_input_cost_usd: g.cost.input,
    $ai_output_cost_usd: g.cost.output,
    $ai_total_cost_usd: g.cost.total,
    $ai_latency: seconds(g.endedAt - g.startedAt),
    $ai_time_to_first_token: g.timeToFirstTokenMs === null ? null : seconds(g.timeToFirstTokenMs),
    $ai_stream: g.streamed,
    $ai_http_status: last?.status ?? (g.status === "error" ? 500 : 200),
    $ai_is_error: g.status === "error",
    $ai_stop_reason: g.finishReason,
    ...(g.status === "error" ? { $ai_error: g.errorMessage ?? "generation failed" } : {}),
  };
  // privacy mode (input/output null) sends none of these, as PostHog's own privacy mode does
  if (g.input) {
    properties.$ai_input = g.input.messages;
    if (g.input.tools !== null) properties.$ai_tools = g.input.tools;
    if (Object.keys(g.input.parameters).length > 0) properties.$ai_model_parameters = g.input.parameters;
  }
  if (g.output) properties.$ai_output_choices = [structuredOutput(g.output)];
  // unknown is left out, not sent as null: PostHog would chart a null as a value
  return Object.fromEntries(Object.entries(properties).filter(([, value]) => value !== null && value !== undefined));
}
