import type { Destination, DestinationSender, ObservedGeneration, SenderDeps, SendOutcome } from "../contract";
import { sendGenerationItems } from "../halving-batches";
import { structuredInput, structuredOutput } from "./chat-messages";
import { baseUrlOf, configText } from "./destination-config";
import { generationMetadata, knownNumbers, seconds, totalTokens } from "./generation-metadata";
import { classifyResponse, postJson } from "./post-json";
import { probeFromResponse } from "./probe-result";
import { destinationHeaders } from "./request-headers";
import { type PlannedSpan, planTrace, spanHexId, type TracePlan, traceHexId } from "./trace-plan";

/**
 * Braintrust project logs (braintrust.dev/docs/api-reference): `POST {baseUrl}/v1/project_logs/{projectId}/insert`
 * with `{events}`, one event per span of the trace plan. Every id is derived from the
 * generation, so a retried insert replaces the rows of the first attempt instead of adding rows.
 */
export const braintrustSender: DestinationSender = {
  type: "braintrust",
  configKeys: [
    { key: "apiKey", required: true, secret: true },
    { key: "projectId", required: true },
    { key: "baseUrl", required: false, default: "https://api.braintrust.dev", url: true },
  ],
  // reads the project: checks the key and the project id together, writes nothing
  async probe(destination, deps) {
    const url = `${baseUrlOf(destination, "baseUrl")}/v1/project/${encodeURIComponent(configText(destination, "projectId"))}`;
    return probeFromResponse(await deps.http({ url, method: "GET", headers: authHeaders(destination, null) }), "the project");
  },
  sendMany: insertEvents,
  send: async (generation, destination, deps) => (await insertEvents([generation], destination, deps))[0]!,
};

/** The generations' events in `insert` requests (sendGenerationItems). */
function insertEvents(generations: readonly ObservedGeneration[], destination: Destination, deps: SenderDeps): Promise<SendOutcome[]> {
  const url = `${baseUrlOf(destination, "baseUrl")}/v1/project_logs/${encodeURIComponent(configText(destination, "projectId"))}/insert`;
  const headers = authHeaders(destination, "application/json");
  return sendGenerationItems(
    generations.map((g) => braintrustEvents(g, destination)),
    (events) => postJson(deps, url, headers, { events }),
    (result) => classifyResponse(result, deps.clock()),
  );
}

const authHeaders = (destination: Destination, contentType: string | null) =>
  destinationHeaders(destination, { authorization: `Bearer ${configText(destination, "apiKey")}` }, contentType);

export function braintrustEvents(g: ObservedGeneration, destination: Destination): Record<string, unknown>[] {
  const plan = planTrace(g);
  const rootSpanId = traceHexId(plan);
  // a generation that is its own trace is the trace's root span: Braintrust's root has span_id == root_span_id
  const spanId = (span: PlannedSpan) => (span === plan.top && plan.callerTraceId === null ? rootSpanId : spanHexId(span));
  const byKey = new Map(plan.spans.map((span) => [span.key, span]));
  return plan.spans.map((span) => {
    const parent = span.parentKey ? byKey.get(span.parentKey) : undefined;
    const id = spanId(span);
    return {
      id,
      span_id: id,
      root_span_id: rootSpanId,
      ...(parent ? { span_parents: [spanId(parent)] } : {}),
      created: new Date(span.startedAt).toISOString(),
      span_attributes: { name: span.name, type: span.role === "generation" ? "llm" : "task" },
      ...spanContent(span, g, destination, plan),
    };
  });
}

function spanContent(span: PlannedSpan, g: ObservedGeneration, destination: Destination, plan: TracePlan): Record<string, unknown> {
  const timing = { start: seconds(span.startedAt), end: seconds(span.endedAt) };
  if (span.role === "attempt" && span.attempt) {
    const a = span.attempt;
    return {
      metadata: { provider: a.provider, model: a.model, endpoint: a.endpoint, status: a.status },
      metrics: timing,
      ...(a.status >= 400 ? { error: `provider answered ${a.status}` } : {}),
    };
  }
  if (span.role === "wrapper") return { metadata: plan.custom, metrics: timing };
  return {
    ...(g.input ? { input: structuredInput(g.input) } : {}),
    ...(g.output ? { output: structuredOutput(g.output) } : {}),
    metadata: { ...generationMetadata(g, destination, plan), provider: g.providerSlug, cost_usd: g.cost },
    metrics: {
      ...timing,
      ...tokenMetrics(g),
      cost: g.cost.total,
      ...(g.timeToFirstTokenMs === null ? {} : { time_to_first_token: seconds(g.timeToFirstTokenMs) }),
    },
    ...(g.status === "error" ? { error: g.errorMessage ?? "generation failed" } : {}),
  };
}

/** Braintrust's metric names for usage; an unknown count is left out, not sent as 0. */
function tokenMetrics(g: ObservedGeneration): Record<string, number> {
  const metrics: Record<string, number | null> = {
    prompt_tokens: g.tokens.prompt,
    completion_tokens: g.tokens.completion,
    tokens: totalTokens(g),
    prompt_cached_tokens: g.tokens.cached,
    prompt_cache_creation_tokens: g.tokens.cacheWrite,
    completion_reasoning_tokens: g.tokens.reasoning,
  };
  return knownNumbers(metrics);
}
