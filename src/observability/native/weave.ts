import type { Destination, DestinationSender, ObservedGeneration, SenderDeps, SendOutcome } from "../contract";
import { sendGenerationItems } from "../halving-batches";
import { structuredInput, structuredOutput } from "./chat-messages";
import { baseUrlOf, configText } from "./destination-config";
import { generationMetadata, knownNumbers, totalTokens } from "./generation-metadata";
import { classifyResponse, postJson } from "./post-json";
import { probeFromResponse } from "./probe-result";
import { basicAuth, destinationHeaders } from "./request-headers";
import { type PlannedSpan, planTrace, spanUuidV7, type TracePlan, traceUuidV7 } from "./trace-plan";

/**
 * W&B Weave (docs.wandb.ai/weave/cookbooks/weave_via_service_api) through the batch form, `POST {baseUrl}/v2/{entity}/{project}/calls/complete`:
 * one record per finished call with its start and end together. Chosen over `/call/start` +
 * `/call/end` because it is one request (a failed end cannot leave a call open forever), it is
 * what Weave's own SDK sends by default, and projects in "calls complete" mode refuse the older
 * start/end batch. Call ids are derived from the generation, so a retry writes the same calls.
 */
export const weaveSender: DestinationSender = {
  type: "weave",
  configKeys: [
    { key: "apiKey", required: true, secret: true },
    { key: "entity", required: true },
    { key: "project", required: true },
    { key: "baseUrl", required: false, default: "https://trace.wandb.ai", url: true },
  ],
  // a one-call query of the project: checks the key and that entity/project is readable
  async probe(destination, deps) {
    const body = JSON.stringify({ project_id: projectId(destination), limit: 1 });
    return probeFromResponse(
      await deps.http({ url: `${baseUrlOf(destination, "baseUrl")}/calls/stream_query`, method: "POST", headers: weaveHeaders(destination), body }),
      "the project",
    );
  },
  sendMany: completeCalls,
  send: async (generation, destination, deps) => (await completeCalls([generation], destination, deps))[0]!,
};

/** The generations' calls in `calls/complete` requests (sendGenerationItems). */
function completeCalls(generations: readonly ObservedGeneration[], destination: Destination, deps: SenderDeps): Promise<SendOutcome[]> {
  const url = `${baseUrlOf(destination, "baseUrl")}/v2/${encodeURIComponent(configText(destination, "entity"))}/${encodeURIComponent(configText(destination, "project"))}/calls/complete`;
  const headers = weaveHeaders(destination);
  return sendGenerationItems(
    generations.map((g) => weaveCalls(g, destination)),
    (batch) => postJson(deps, url, headers, { batch }),
    (result) => classifyResponse(result, deps.clock()),
  );
}

const projectId = (destination: Destination) => `${configText(destination, "entity")}/${configText(destination, "project")}`;

// W&B API keys authenticate as the user "api"
const weaveHeaders = (destination: Destination) => destinationHeaders(destination, { authorization: basicAuth("api", configText(destination, "apiKey")) });

const OP_PREFIX = "model-gateway";

export function weaveCalls(g: ObservedGeneration, destination: Destination): Record<string, unknown>[] {
  const plan = planTrace(g);
  const traceId = traceUuidV7(plan, g);
  const byKey = new Map(plan.spans.map((span) => [span.key, span]));
  return plan.spans.map((span) => {
    const parent = span.parentKey ? byKey.get(span.parentKey) : undefined;
    return {
      project_id: projectId(destination),
      id: spanUuidV7(span),
      trace_id: traceId,
      ...(parent ? { parent_id: spanUuidV7(parent) } : {}),
      ...(g.sessionId ? { thread_id: g.sessionId } : {}),
      display_name: span.name,
      started_at: new Date(span.startedAt).toISOString(),
      ended_at: new Date(span.endedAt).toISOString(),
      ...callBody(span, g, destination, plan),
    };
  });
}

function callBody(span: PlannedSpan, g: ObservedGeneration, destination: Destination, plan: TracePlan): Record<string, unknown> {
  if (span.attempt) {
    const a = span.attempt;
    return {
      op_name: `${OP_PREFIX}.provider_attempt`,
      attributes: { provider: a.provider, model: a.model, endpoint: a.endpoint, status: a.status },
      inputs: {},
      ...(a.status >= 400 ? { exception: `provider answered ${a.status}` } : {}),
    };
  }
  if (span.role === "wrapper") return { op_name: `${OP_PREFIX}.span`, attributes: { ...plan.custom }, inputs: {} };
  return {
    op_name: `${OP_PREFIX}.${g.operation}`,
    attributes: { ...generationMetadata(g, destination, plan), cost_usd: g.cost, time_to_first_token_ms: g.timeToFirstTokenMs },
    // `inputs` is required: an empty object when privacy mode removed the messages
    inputs: g.input ? structuredInput(g.input) : {},
    ...(g.output ? { output: structuredOutput(g.output) } : {}),
    summary: { usage: { [g.model]: usage(g) } },
    ...(g.status === "error" ? { exception: g.errorMessage ?? "generation failed" } : {}),
  };
}

/** Weave's per-model usage; unknown counts are left out. */
function usage(g: ObservedGeneration): Record<string, number> {
  const counts: Record<string, number | null> = {
    requests: 1,
    prompt_tokens: g.tokens.prompt,
    completion_tokens: g.tokens.completion,
    total_tokens: totalTokens(g),
  };
  return knownNumbers(counts);
}
