import type { Destination, ObservedGeneration } from "../contract";
import { type Attributes, double } from "./attribute-value";
import { contentAttributes, contentOf } from "./content-attributes";
import { operationShapeOf } from "./operation";
import { prefixed, traceFieldsOf } from "./trace-fields";

/**
 * The attributes of the generation span every OTLP type gets: the GenAI semantic conventions
 * (gen_ai.*, still "Development") and, beside them, the names OpenRouter's Broadcast emits
 * (gen_ai.usage.total_cost, gen_ai.usage.input_tokens.cached, openrouter.*, trace.metadata.*),
 * so dashboards built for either read them.
 */

/** `gen_ai.request.*` from the request's sampling parameters, when they were kept. */
const REQUEST_PARAMETERS: ReadonlyArray<[string, string]> = [
  ["max_tokens", "gen_ai.request.max_tokens"],
  ["max_completion_tokens", "gen_ai.request.max_tokens"],
  ["max_output_tokens", "gen_ai.request.max_tokens"],
  ["temperature", "gen_ai.request.temperature"],
  ["top_p", "gen_ai.request.top_p"],
  ["top_k", "gen_ai.request.top_k"],
  ["frequency_penalty", "gen_ai.request.frequency_penalty"],
  ["presence_penalty", "gen_ai.request.presence_penalty"],
  ["seed", "gen_ai.request.seed"],
];

function requestParameters(parameters: Readonly<Record<string, unknown>>): Attributes {
  const out: Attributes = {};
  for (const [name, attribute] of REQUEST_PARAMETERS) {
    const value = parameters[name];
    if (typeof value === "number" && out[attribute] === undefined)
      out[attribute] = attribute.endsWith("max_tokens") || attribute.endsWith("top_k") || attribute.endsWith("seed") ? value : double(value);
  }
  const stop = parameters.stop ?? parameters.stop_sequences;
  if (typeof stop === "string") out["gen_ai.request.stop_sequences"] = [stop];
  else if (Array.isArray(stop)) out["gen_ai.request.stop_sequences"] = stop.filter((s) => typeof s === "string");
  return out;
}

function usageAttributes(g: ObservedGeneration, withOutput: boolean): Attributes {
  const { prompt, completion, cached, cacheWrite, reasoning } = g.tokens;
  const total = prompt === null && completion === null ? null : (prompt ?? 0) + (withOutput ? (completion ?? 0) : 0);
  return {
    "gen_ai.usage.input_tokens": prompt,
    "gen_ai.usage.output_tokens": withOutput ? completion : null,
    "gen_ai.usage.total_tokens": total,
    "gen_ai.usage.cache_read.input_tokens": cached,
    "gen_ai.usage.input_tokens.cached": cached,
    "gen_ai.usage.cache_creation.input_tokens": cacheWrite,
    "gen_ai.usage.reasoning.output_tokens": withOutput ? reasoning : null,
    "gen_ai.usage.output_tokens.reasoning": withOutput ? reasoning : null,
    // no semconv name for cost: OpenRouter's names, and Langfuse's gen_ai.usage.cost (the total)
    "gen_ai.usage.input_cost": double(g.cost.input),
    "gen_ai.usage.output_cost": double(g.cost.output),
    "gen_ai.usage.total_cost": double(g.cost.total),
    "gen_ai.usage.cost": double(g.cost.total),
  };
}

/** The opt-in `broadcast_generation_*` categories, as one JSON object (OpenRouter's metadata.openrouter_generation). */
function openRouterGeneration(g: ObservedGeneration, d: Destination): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  if (d.broadcastGenerationCost)
    Object.assign(out, {
      total_cost: g.cost.total,
      input_cost: g.cost.input,
      output_cost: g.cost.output,
      is_byok: g.isByok,
      tokens_prompt: g.tokens.prompt,
      tokens_completion: g.tokens.completion,
      cached_tokens: g.tokens.cached,
      cache_write_tokens: g.tokens.cacheWrite,
      reasoning_tokens: g.tokens.reasoning,
    });
  if (d.broadcastGenerationIdentity)
    Object.assign(out, { workspace_id: g.workspaceId, api_key_hash: g.keyHash, api_key_name: g.keyName, user_id: g.userId, external_user: g.externalUser });
  if (d.broadcastGenerationRequestContext)
    Object.assign(out, {
      operation: g.operation,
      requested_model: g.requestedModel,
      provider_slug: g.providerSlug,
      streamed: g.streamed,
      cancelled: g.cancelled,
      finish_reason: g.finishReason,
      time_to_first_token_ms: g.timeToFirstTokenMs,
      attempts: g.attempts.length,
    });
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Attributes of identity (user, session, trace name, custom metadata) that some types repeat on every span. */
export function traceLevelAttributes(g: ObservedGeneration): Attributes {
  const fields = traceFieldsOf(g);
  return {
    "trace.name": fields.traceName,
    "session.id": g.sessionId,
    "gen_ai.conversation.id": g.sessionId,
    "user.id": g.externalUser ?? g.userId,
    ...prefixed("trace.metadata", fields.metadata),
  };
}

export function generationAttributes(g: ObservedGeneration, d: Destination): Attributes {
  const shape = operationShapeOf(g);
  const { input, output } = contentOf(g, d);
  const finishReasons = g.finishReason === null || !shape.hasOutput ? null : [g.finishReason];
  return {
    "gen_ai.operation.name": shape.semconvOperation,
    "gen_ai.provider.name": g.providerSlug ?? "openrouter",
    "gen_ai.system": g.providerSlug ?? "openrouter",
    "gen_ai.request.model": g.requestedModel ?? g.model,
    "gen_ai.response.model": g.model,
    "gen_ai.response.id": g.id,
    "gen_ai.request.stream": g.streamed,
    "gen_ai.output.type": shape.outputType,
    "gen_ai.response.finish_reasons": finishReasons,
    "gen_ai.response.finish_reason": finishReasons?.[0],
    "gen_ai.response.time_to_first_chunk": g.streamed && g.timeToFirstTokenMs !== null ? double(g.timeToFirstTokenMs / 1000) : undefined,
    ...(input ? requestParameters(input.parameters) : {}),
    ...usageAttributes(g, shape.hasOutput),
    "error.type": g.status === "error" ? "upstream_error" : undefined,
    "span.type": shape.spanType,
    "span.level": g.status === "error" ? "ERROR" : g.status === "cancelled" ? "WARNING" : "DEFAULT",
    ...traceLevelAttributes(g),
    "openrouter.generation_id": g.id,
    "openrouter.operation": g.operation,
    "openrouter.provider_slug": g.providerSlug,
    "openrouter.provider_name": g.providerName,
    "openrouter.api_key_name": g.keyName,
    "openrouter.user_id": g.userId,
    "openrouter.finish_reason": shape.hasOutput ? g.finishReason : undefined,
    "openrouter.is_byok": g.isByok,
    "openrouter.cancelled": g.cancelled,
    "openrouter.latency_ms": g.endedAt - g.startedAt,
    "openrouter.tools_offered": input ? input.tools !== null && input.tools !== undefined : undefined,
    "openrouter.tools_called": output && shape.hasOutput ? output.toolCalls.length > 0 : undefined,
    "trace.metadata.openrouter.api_key_name": g.keyName,
    "trace.metadata.openrouter.provider_name": g.providerName,
    "trace.metadata.openrouter.provider_slug": g.providerSlug,
    "trace.metadata.openrouter_generation": openRouterGeneration(g, d),
    ...contentAttributes(g, d),
  };
}
