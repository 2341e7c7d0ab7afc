import type { Destination, ObservedGeneration } from "../contract";
import { structuredInput, structuredOutput } from "./chat-messages";
import { generationMetadata, totalTokens } from "./generation-metadata";
import { type PlannedSpan, planTrace, spanHexId, traceHexId } from "./trace-plan";

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * One generation as a trace document (the S3 object's body): the trace, then its observations
 * (the `span_name` wrapper and attempts as SPAN, the generation as GENERATION) with the usage
 * and cost fields named as OpenRouter's Broadcast trace JSON names them: `promptTokens`,
 * `completionTokens`, `totalTokens`, `promptTokensDetails`, `completionTokensDetails`,
 * `inputCost`, `outputCost`, `totalCost` (USD). An unknown count is null, not 0. In privacy
 * mode there is no `input` or `output` key anywhere.
 */
export function traceDocument(g: ObservedGeneration, destination: Destination): Record<string, unknown> {
  const plan = planTrace(g);
  const traceId = traceHexId(plan);
  const content = {
    ...(g.input ? { input: structuredInput(g.input) } : {}),
    ...(g.output ? { output: structuredOutput(g.output) } : {}),
  };
  const byKey = new Map(plan.spans.map((span) => [span.key, span]));
  const observation = (span: PlannedSpan): Record<string, unknown> => {
    const parent = span.parentKey ? byKey.get(span.parentKey) : undefined;
    const failed = span.attempt ? span.attempt.status >= 400 : span.role === "generation" && g.status === "error";
    return {
      id: spanHexId(span),
      traceId,
      parentObservationId: parent ? spanHexId(parent) : null,
      type: span.role === "generation" ? "GENERATION" : "SPAN",
      name: span.name,
      startTime: iso(span.startedAt),
      endTime: iso(span.endedAt),
      level: failed ? "ERROR" : "DEFAULT",
      ...(span.attempt
        ? { metadata: { provider: span.attempt.provider, model: span.attempt.model, endpoint: span.attempt.endpoint, status: span.attempt.status } }
        : {}),
      ...(span.role === "generation" ? generationFields(g) : {}),
      ...(span.role === "generation" ? content : {}),
    };
  };
  return {
    trace: {
      id: traceId,
      name: plan.traceName,
      timestamp: iso(g.startedAt),
      startTime: iso(g.startedAt),
      endTime: iso(g.endedAt),
      sessionId: g.sessionId,
      userId: g.externalUser,
      ...content,
      metadata: generationMetadata(g, destination, plan),
    },
    observations: plan.spans.map(observation),
  };
}

function generationFields(g: ObservedGeneration): Record<string, unknown> {
  return {
    model: g.model,
    provider: g.providerSlug,
    completionStartTime: g.timeToFirstTokenMs === null ? null : iso(g.startedAt + g.timeToFirstTokenMs),
    statusMessage: g.status === "error" ? g.errorMessage : null,
    finishReason: g.finishReason,
    promptTokens: g.tokens.prompt,
    completionTokens: g.tokens.completion,
    totalTokens: totalTokens(g),
    promptTokensDetails: { cachedTokens: g.tokens.cached, cacheWriteTokens: g.tokens.cacheWrite },
    completionTokensDetails: { reasoningTokens: g.tokens.reasoning },
    inputCost: g.cost.input,
    outputCost: g.cost.output,
    totalCost: g.cost.total,
  };
}
