import type { Settlement } from "../../ir/settlement";
import { emptyUsage, type IRUsage } from "../../ir/types";
import type { ResponsesUsage } from "./schema";
import type { WireUsage } from "./wire";

/** Responses `usage` (the usage of OpenRouter's OpenResponsesResult): input_tokens already include cached ones, like IR; the money is what the gateway charged. */
export function encodeResponsesUsage(usage: IRUsage, settlement: Settlement): ResponsesUsage {
  const details = settlement.costDetails;
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cachedTokens, cache_write_tokens: usage.cacheWriteTokens },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens },
    total_tokens: usage.inputTokens + usage.outputTokens,
    cost: settlement.cost,
    is_byok: settlement.isByok,
    cost_details: {
      upstream_inference_cost: details.upstreamInferenceCost,
      upstream_inference_input_cost: details.upstreamInferencePromptCost,
      upstream_inference_output_cost: details.upstreamInferenceCompletionsCost,
    },
    ...(usage.webSearchRequests !== undefined ? { server_tool_use_details: { web_search_requests: usage.webSearchRequests } } : {}),
  };
}

const count = (value: unknown): number | undefined => (typeof value === "number" && Number.isFinite(value) ? value : undefined);

/** An upstream's usage; counts it did not report stay 0. Its `cost` is the upstream's price, not ours, so it is dropped. */
export function decodeResponsesUsage(raw: unknown): IRUsage {
  const usage = emptyUsage();
  if (!raw || typeof raw !== "object") return usage;
  const wire = raw as WireUsage;
  usage.inputTokens = count(wire.input_tokens) ?? 0;
  usage.outputTokens = count(wire.output_tokens) ?? 0;
  usage.cachedTokens = count(wire.input_tokens_details?.cached_tokens) ?? 0;
  usage.cacheWriteTokens = count(wire.input_tokens_details?.cache_write_tokens) ?? 0;
  usage.reasoningTokens = count(wire.output_tokens_details?.reasoning_tokens) ?? 0;
  const webSearch = count(wire.server_tool_use_details?.web_search_requests);
  if (webSearch !== undefined) usage.webSearchRequests = webSearch;
  return usage;
}
