import type { Destination, DestinationSender, ObservedGeneration, SenderDeps, SendOutcome } from "../contract";
import { sendGenerationItems } from "../halving-batches";
import { inputMessages, outputMessages } from "./chat-messages";
import { baseUrlOf, configText } from "./destination-config";
import { generationMetadata, knownNumbers, scalarMetadata, seconds, totalTokens } from "./generation-metadata";
import { derivedDecimal64 } from "./ids";
import { classifyResponse } from "./post-json";
import { probeFromResponse } from "./probe-result";
import { destinationHeaders } from "./request-headers";
import { type PlannedSpan, planTrace, type TracePlan, traceHexId } from "./trace-plan";

/** Datadog's rule for `ml_app`: lowercase, at most 193 of `[a-z0-9_-:./]`, no double or trailing underscore. */
const ML_APP = /^(?!.*__)(?!.*_$)[a-z0-9_\-:./]{1,193}$/;

/**
 * Datadog LLM Observability (its HTTP API, DataDog/documentation llm_observability/instrumentation/api.md): the spans of generations to
 * `POST {url}/api/intake/llm-obs/v1/trace/spans`, answered 202. Times are integer nanoseconds.
 */
export const datadogSender: DestinationSender = {
  type: "datadog",
  configKeys: [
    { key: "apiKey", required: true, secret: true },
    { key: "mlApp", required: true, pattern: ML_APP },
    { key: "url", required: false, default: "https://api.us5.datadoghq.com", url: true },
  ],
  // Datadog's key check: it answers {"valid":true} for a key of the site, 403 otherwise
  async probe(destination, deps) {
    const url = `${baseUrlOf(destination, "url")}/api/v1/validate`;
    return probeFromResponse(await deps.http({ url, method: "GET", headers: destinationHeaders(destination, apiKeyHeader(destination), null) }), "the API");
  },
  sendMany: sendSpans,
  send: async (generation, destination, deps) => (await sendSpans([generation], destination, deps))[0]!,
};

/**
 * The generations' spans in as few requests as their payloads allow: the payload's own fields
 * (`ml_app`, `session_id`, `tags`) hold for all of its spans, so generations that share them go
 * together (sendGenerationItems), each group in requests of its own.
 */
async function sendSpans(generations: readonly ObservedGeneration[], destination: Destination, deps: SenderDeps): Promise<SendOutcome[]> {
  const url = `${baseUrlOf(destination, "url")}/api/intake/llm-obs/v1/trace/spans`;
  const headers = destinationHeaders(destination, apiKeyHeader(destination));
  const groups = new Map<string, Array<{ at: number; payload: DatadogPayload }>>();
  generations.forEach((g, at) => {
    const payload = datadogPayload(g, destination);
    const { spans: _spans, ...shared } = payload.data.attributes;
    const key = JSON.stringify(shared);
    groups.set(key, [...(groups.get(key) ?? []), { at, payload }]);
  });
  const outcomes = new Array<SendOutcome>(generations.length);
  for (const members of groups.values()) {
    const { attributes } = members[0]!.payload.data;
    const post = (spans: readonly unknown[]) =>
      deps.http({ url, method: "POST", headers, body: jsonWithNanoseconds({ data: { type: "span", attributes: { ...attributes, spans } } }) });
    const sent = await sendGenerationItems(
      members.map((m) => m.payload.data.attributes.spans),
      post,
      (result) => classifyResponse(result, deps.clock()),
    );
    members.forEach((m, i) => (outcomes[m.at] = sent[i]!));
  }
  return outcomes;
}

type DatadogPayload = { data: { type: "span"; attributes: { ml_app: string; session_id?: string; tags: string[]; spans: Array<Record<string, unknown>> } } };

const apiKeyHeader = (destination: Destination) => ({ "dd-api-key": configText(destination, "apiKey") });

/** A nanosecond count: written into the JSON as an exact integer, which a double cannot hold. */
class Nanoseconds {
  constructor(readonly value: bigint) {}
}
const nanosecondsOf = (ms: number) => new Nanoseconds(BigInt(Math.round(ms * 1000)) * 1000n);

function jsonWithNanoseconds(value: unknown): string {
  const marks: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (!(v instanceof Nanoseconds)) return v;
    marks.push(v.value.toString());
    return `\u0000ns${marks.length - 1}\u0000`;
  });
  return text.replace(/"\\u0000ns(\d+)\\u0000"/g, (_m, i: string) => marks[Number(i)]!);
}

export function datadogPayload(g: ObservedGeneration, destination: Destination): DatadogPayload {
  const plan = planTrace(g);
  const traceId = traceHexId(plan);
  const tags = [`operation:${g.operation}`, ...(g.externalUser ? [`user_id:${g.externalUser}`] : []), ...(g.keyName ? [`api_key_name:${g.keyName}`] : [])].map(
    (tag) => tag.replace(/,/g, "_"),
  );
  return {
    data: {
      type: "span",
      attributes: {
        ml_app: configText(destination, "mlApp"),
        ...(g.sessionId ? { session_id: g.sessionId } : {}),
        tags,
        spans: plan.spans.map((span) => ({
          trace_id: traceId,
          span_id: derivedDecimal64("span", span.key),
          // a root's parent must be the string "undefined"
          parent_id: span.parentKey ? derivedDecimal64("span", span.parentKey) : "undefined",
          name: span.name,
          start_ns: nanosecondsOf(span.startedAt),
          duration: Math.max(0, span.endedAt - span.startedAt) * 1e6,
          status: spanFailed(span, g) ? "error" : "ok",
          ...(g.sessionId ? { session_id: g.sessionId } : {}),
          ...spanBody(span, g, destination, plan),
        })),
      },
    },
  };
}

const spanFailed = (span: PlannedSpan, g: ObservedGeneration) => (span.attempt ? span.attempt.status >= 400 : g.status === "error");

const generationKind = (operation: string) => (operation === "embeddings" ? "embedding" : operation === "video" ? "task" : "llm");

function spanBody(span: PlannedSpan, g: ObservedGeneration, destination: Destination, plan: TracePlan): Record<string, unknown> {
  if (span.attempt) {
    const a = span.attempt;
    return { meta: { kind: "task", metadata: { provider: a.provider, model: a.model, endpoint: a.endpoint, status: a.status } } };
  }
  if (span.role === "wrapper") return { meta: { kind: "workflow", metadata: scalarMetadata({ ...plan.custom }) } };
  const kind = generationKind(g.operation);
  const parameters = g.input?.parameters ?? {};
  const metadata = scalarMetadata({
    ...generationMetadata(g, destination, plan),
    model_name: g.model,
    model_provider: g.providerSlug ?? "unknown",
    ...(typeof parameters.temperature === "number" ? { temperature: parameters.temperature } : {}),
    ...(typeof parameters.max_tokens === "number" ? { max_tokens: parameters.max_tokens } : {}),
    input_cost_usd: g.cost.input,
    output_cost_usd: g.cost.output,
    total_cost_usd: g.cost.total,
  });
  const input = g.input
    ? kind === "embedding"
      ? { documents: inputMessages(g.input).map((m) => ({ text: m.content })) }
      : { messages: inputMessages(g.input) }
    : null;
  return {
    meta: {
      kind,
      ...(input ? { input } : {}),
      ...(g.output ? { output: { messages: outputMessages(g.output) } } : {}),
      metadata,
      ...(g.status === "error" ? { error: { message: g.errorMessage ?? "generation failed", type: "GenerationError" } } : {}),
    },
    metrics: generationMetrics(g),
  };
}

function generationMetrics(g: ObservedGeneration): Record<string, number> {
  const metrics: Record<string, number | null> = {
    input_tokens: g.tokens.prompt,
    output_tokens: g.tokens.completion,
    total_tokens: totalTokens(g),
    cache_read_input_tokens: g.tokens.cached,
    cache_write_input_tokens: g.tokens.cacheWrite,
    reasoning_output_tokens: g.tokens.reasoning,
    time_to_first_token: g.timeToFirstTokenMs === null ? null : seconds(g.timeToFirstTokenMs),
  };
  return knownNumbers(metrics);
}
