import type { Destination, ObservedGeneration } from "../contract";
import type { TracePlan } from "./trace-plan";

/** Prompt plus completion; one of them alone when the other is unknown; null when both are (unknown is not zero). */
export function totalTokens(g: ObservedGeneration): number | null {
  const { prompt, completion } = g.tokens;
  if (prompt === null && completion === null) return null;
  return (prompt ?? 0) + (completion ?? 0);
}

/** The known counts only: an unknown one is left out, never sent as 0 (OpenRouter's Broadcast: null or omitted means unavailable). */
export function knownNumbers(values: Record<string, number | null>): Record<string, number> {
  return Object.fromEntries(Object.entries(values).filter((entry): entry is [string, number] => entry[1] !== null));
}

/** Seconds, as most services want durations. */
export const seconds = (ms: number) => ms / 1000;

/**
 * What every native format carries as the generation's metadata: the caller's custom `trace`
 * keys, what the gateway knows of the generation (these survive privacy mode in OpenRouter's
 * Broadcast), and `openrouter_generation` with the categories the destination opted into.
 */
export function generationMetadata(g: ObservedGeneration, destination: Destination, plan: TracePlan): Record<string, unknown> {
  const metadata: Record<string, unknown> = {
    ...plan.custom,
    generation_id: g.id,
    operation: g.operation,
    model: g.model,
    requested_model: g.requestedModel,
    provider_slug: g.providerSlug,
    provider_name: g.providerName,
    api_key_name: g.keyName,
    user_id: g.externalUser,
    session_id: g.sessionId,
    finish_reason: g.finishReason,
    status: g.status,
    streamed: g.streamed,
    cancelled: g.cancelled,
  };
  if (plan.callerTraceId) metadata.trace_id = plan.callerTraceId;
  if (plan.callerParentSpanId) metadata.parent_span_id = plan.callerParentSpanId;
  const opted = optedInCategories(g, destination);
  if (Object.keys(opted).length > 0) metadata.openrouter_generation = opted;
  return metadata;
}

function optedInCategories(g: ObservedGeneration, destination: Destination): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (destination.broadcastGenerationCost) {
    Object.assign(out, {
      is_byok: g.isByok,
      cache_write_tokens: g.tokens.cacheWrite,
      cached_tokens: g.tokens.cached,
      reasoning_tokens: g.tokens.reasoning,
      usage: { prompt_tokens: g.tokens.prompt, completion_tokens: g.tokens.completion, total_tokens: totalTokens(g), cost: g.cost.total },
    });
  }
  if (destination.broadcastGenerationIdentity) {
    Object.assign(out, { workspace_id: g.workspaceId, creator_user_id: g.userId, api_key_name: g.keyName, external_user: g.externalUser });
  }
  if (destination.broadcastGenerationRequestContext) {
    Object.assign(out, { requested_model: g.requestedModel, streamed: g.streamed, cancelled: g.cancelled, attempts: g.attempts.length });
  }
  return out;
}

/** Metadata flattened to the scalar values some services require (Datadog, PostHog): objects become JSON text. */
export function scalarMetadata(metadata: Record<string, unknown>): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(metadata)) {
    if (value === null || value === undefined) continue;
    out[key] = typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? value : JSON.stringify(value);
  }
  return out;
}
