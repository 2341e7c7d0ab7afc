import type { Settlement } from "../../ir/settlement";
import type { IRUsage } from "../../ir/types";
import type { MessagesResult, MessagesUsage } from "./schema";
import type { WireUsage } from "./wire";

/**
 * Anthropic's input_tokens EXCLUDES cache reads and writes; the IR's includes them
 * (types.ts), so the three are added here and subtracted again in encodeUsage.
 */
export function decodeUsage(wire: WireUsage): IRUsage {
  const cachedTokens = wire.cache_read_input_tokens ?? 0;
  const cacheWriteTokens = wire.cache_creation_input_tokens ?? 0;
  const usage: IRUsage = {
    inputTokens: (wire.input_tokens ?? 0) + cachedTokens + cacheWriteTokens,
    outputTokens: wire.output_tokens ?? 0,
    cachedTokens,
    cacheWriteTokens,
    reasoningTokens: wire.output_tokens_details?.thinking_tokens ?? 0,
  };
  if (wire.cache_creation) {
    usage.cacheWrite5mTokens = wire.cache_creation.ephemeral_5m_input_tokens ?? 0;
    usage.cacheWrite1hTokens = wire.cache_creation.ephemeral_1h_input_tokens ?? 0;
  }
  if (wire.server_tool_use?.web_search_requests) usage.webSearchRequests = wire.server_tool_use.web_search_requests;
  return usage;
}

/** The prompt side of a usage, as known when a stream starts. */
export function inputSideOf(usage: IRUsage): Partial<IRUsage> {
  const part: Partial<IRUsage> = {
    inputTokens: usage.inputTokens,
    cachedTokens: usage.cachedTokens,
    cacheWriteTokens: usage.cacheWriteTokens,
  };
  if (usage.cacheWrite5mTokens !== undefined) part.cacheWrite5mTokens = usage.cacheWrite5mTokens;
  if (usage.cacheWrite1hTokens !== undefined) part.cacheWrite1hTokens = usage.cacheWrite1hTokens;
  return part;
}

/** Later stream usage overrides earlier field by field; absent and null counters do not erase known ones. */
export function mergeUsageWire(into: WireUsage, next: WireUsage): WireUsage {
  const merged: WireUsage = { ...into };
  for (const [key, value] of Object.entries(next) as Array<[keyof WireUsage, unknown]>) {
    if (value !== null && value !== undefined) (merged as Record<string, unknown>)[key] = value;
  }
  return merged;
}

/** Tokens as Anthropic counts them (message_start, before anything is charged). */
export function encodeUsage(usage: IRUsage): MessagesUsage {
  const cacheRead = usage.cachedTokens;
  const cacheWrite = usage.cacheWriteTokens;
  const write1h = usage.cacheWrite1hTokens ?? 0;
  // Without a reported split every write is taken as the default 5-minute TTL.
  const write5m = usage.cacheWrite5mTokens ?? Math.max(0, cacheWrite - write1h);
  return {
    input_tokens: Math.max(0, usage.inputTokens - cacheRead - cacheWrite),
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
    cache_creation: { ephemeral_5m_input_tokens: write5m, ephemeral_1h_input_tokens: write1h },
    server_tool_use: usage.webSearchRequests ? { web_search_requests: usage.webSearchRequests, web_fetch_requests: 0 } : null,
    service_tier: "standard",
    inference_geo: null,
    output_tokens_details: usage.reasoningTokens > 0 ? { thinking_tokens: usage.reasoningTokens } : null,
  };
}

/** The tokens of a finished answer and, in OpenRouter's extension, what the gateway charged for it. */
export function encodeSettledUsage(usage: IRUsage, settlement: Settlement): MessagesResult["usage"] {
  const details = settlement.costDetails;
  return {
    ...encodeUsage(usage),
    cost: settlement.cost,
    is_byok: settlement.isByok,
    cost_details: {
      upstream_inference_prompt_cost: details.upstreamInferencePromptCost,
      upstream_inference_completions_cost: details.upstreamInferenceCompletionsCost,
      upstream_inference_cost: details.upstreamInferenceCost,
    },
  };
}
