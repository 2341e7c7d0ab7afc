import type { Destination, DestinationSender, ObservedGeneration, SenderDeps, SendOutcome } from "../contract";
import { sendGenerationItems } from "../halving-batches";
import { structuredInput, structuredOutput } from "./chat-messages";
import { configText } from "./destination-config";
import { generationMetadata, knownNumbers, totalTokens } from "./generation-metadata";
import { classifyResponse, type HttpResult, postJson } from "./post-json";
import { probeFromResponse } from "./probe-result";
import { destinationHeaders } from "./request-headers";
import { type PlannedSpan, planTrace, spanUuidV7, type TracePlan, traceUuidV7 } from "./trace-plan";

/** Opik Cloud: the destination has no base URL setting (none in OpenRouter's OpenAPI spec), so the host is fixed. */
export const OPIK_CLOUD_API = "https://www.comet.com/opik/api";

/**
 * Opik's REST API (comet.com/docs/opik/reference/rest-api): the traces, then their spans, each a batch of a drain's rows,
 * answered 204. Ids are version 7 UUIDs derived from the generation (Opik refuses other
 * versions), so a retry upserts the same trace and spans.
 */
export const opikSender: DestinationSender = {
  type: "opik",
  configKeys: [
    { key: "apiKey", required: true, secret: true },
    { key: "workspace", required: true },
    { key: "projectName", required: true },
  ],
  // lists projects by name: checks the key and the workspace; the project itself is created by the first write
  async probe(destination, deps) {
    const url = `${OPIK_CLOUD_API}/v1/private/projects?name=${encodeURIComponent(configText(destination, "projectName"))}&size=1`;
    return probeFromResponse(await deps.http({ url, method: "GET", headers: opikHeaders(destination, null) }), "the workspace");
  },
  sendMany: sendRows,
  send: async (generation, destination, deps) => (await sendRows([generation], destination, deps))[0]!,
};

/**
 * The generations' traces in batches, then the spans of those whose trace went through (Opik
 * shows spans under the trace they name), both through sendGenerationItems. A generation's
 * outcome is its trace's when that failed, else its spans'.
 */
async function sendRows(generations: readonly ObservedGeneration[], destination: Destination, deps: SenderDeps): Promise<SendOutcome[]> {
  const rows = generations.map((g) => opikRows(g, destination));
  const headers = opikHeaders(destination, "application/json");
  const classify = (result: HttpResult) => classifyResponse(result, deps.clock());
  const traced = await sendGenerationItems(
    rows.map((row) => [row.trace]),
    (traces) => postJson(deps, `${OPIK_CLOUD_API}/v1/private/traces/batch`, headers, { traces }),
    classify,
  );
  const withTrace = rows.flatMap((row, i) => (traced[i]!.kind === "delivered" ? [{ i, spans: row.spans }] : []));
  const spanned = await sendGenerationItems(
    withTrace.map((row) => row.spans),
    (spans) => postJson(deps, `${OPIK_CLOUD_API}/v1/private/spans/batch`, headers, { spans }),
    classify,
  );
  const outcomes = [...traced];
  withTrace.forEach((row, k) => (outcomes[row.i] = spanned[k]!));
  return outcomes;
}

// Opik takes the API key bare in `authorization`, without "Bearer"
const opikHeaders = (destination: Destination, contentType: string | null) =>
  destinationHeaders(destination, { authorization: configText(destination, "apiKey"), "comet-workspace": configText(destination, "workspace") }, contentType);

const iso = (ms: number) => new Date(ms).toISOString();

const errorInfo = (message: string) => ({ exception_type: "GenerationError", message, traceback: "" });

export function opikRows(g: ObservedGeneration, destination: Destination): { trace: Record<string, unknown>; spans: Record<string, unknown>[] } {
  const plan = planTrace(g);
  const projectName = configText(destination, "projectName");
  const traceId = traceUuidV7(plan, g);
  const metadata = generationMetadata(g, destination, plan);
  const trace = {
    id: traceId,
    project_name: projectName,
    name: plan.traceName,
    start_time: iso(g.startedAt),
    end_time: iso(g.endedAt),
    ...content(g),
    metadata,
    ...(g.sessionId ? { thread_id: g.sessionId } : {}),
    ...(g.status === "error" ? { error_info: errorInfo(g.errorMessage ?? "generation failed") } : {}),
  };
  const byKey = new Map(plan.spans.map((span) => [span.key, span]));
  const spans = plan.spans.map((span) => {
    const parent = span.parentKey ? byKey.get(span.parentKey) : undefined;
    return {
      id: spanUuidV7(span),
      trace_id: traceId,
      ...(parent ? { parent_span_id: spanUuidV7(parent) } : {}),
      project_name: projectName,
      name: span.name,
      type: span.role === "generation" ? "llm" : "general",
      start_time: iso(span.startedAt),
      end_time: iso(span.endedAt),
      ...spanFields(span, g, metadata, plan),
    };
  });
  return { trace, spans };
}

const content = (g: ObservedGeneration) => ({
  ...(g.input ? { input: structuredInput(g.input) } : {}),
  ...(g.output ? { output: structuredOutput(g.output) } : {}),
});

function spanFields(span: PlannedSpan, g: ObservedGeneration, metadata: Record<string, unknown>, plan: TracePlan): Record<string, unknown> {
  if (span.attempt) {
    const a = span.attempt;
    return {
      metadata: { endpoint: a.endpoint, status: a.status },
      model: a.model,
      provider: a.provider,
      ...(a.status >= 400 ? { error_info: errorInfo(`provider answered ${a.status}`) } : {}),
    };
  }
  if (span.role === "wrapper") return { metadata: plan.custom };
  return {
    ...content(g),
    metadata: { ...metadata, ...(g.timeToFirstTokenMs === null ? {} : { time_to_first_token_ms: g.timeToFirstTokenMs }) },
    model: g.model,
    ...(g.providerSlug ? { provider: g.providerSlug } : {}),
    usage: usage(g),
    total_estimated_cost: g.cost.total,
    ...(g.status === "error" ? { error_info: errorInfo(g.errorMessage ?? "generation failed") } : {}),
  };
}

/** Opik's usage is a map of integers: unknown counts are left out. */
function usage(g: ObservedGeneration): Record<string, number> {
  const counts: Record<string, number | null> = { prompt_tokens: g.tokens.prompt, completion_tokens: g.tokens.completion, total_tokens: totalTokens(g) };
  return knownNumbers(counts);
}
