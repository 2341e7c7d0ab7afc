import type { Settlement } from "../../ir/settlement";
import type { IRUsage } from "../../ir/types";
import type { ChatUsage } from "./schema";
import type { WireUsage } from "./wire";

/** ChatUsage as OpenRouter returns it: prompt tokens already include cached ones; the money is what the gateway charged. */
export function encodeChatUsage(usage: IRUsage, settlement: Settlement): ChatUsage {
  const details = settlement.costDetails;
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    cost: settlement.cost,
    is_byok: settlement.isByok,
    cost_details: {
      upstream_inference_cost: details.upstreamInferenceCost,
      upstream_inference_prompt_cost: details.upstreamInferencePromptCost,
      upstream_inference_completions_cost: details.upstreamInferenceCompletionsCost,
    },
    prompt_tokens_details: { cached_tokens: usage.cachedTokens, cache_write_tokens: usage.cacheWriteTokens },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens },
    ...(usage.webSearchRequests !== undefined ? { server_tool_use_details: { web_search_requests: usage.webSearchRequests } } : {}),
  };
}

const count = (value: unknown): number | undefined => (typeof value === "number" && Number.isFinite(value) ? value : undefined);

/** Only the fields the upstream actually reported, so stream updates merge field by field. */
export function decodeChatUsage(usage: WireUsage | null | undefined): Partial<IRUsage> {
  if (!usage || typeof usage !== "object") return {};
  const decoded: Partial<IRUsage> = {};
  const input = count(usage.prompt_tokens);
  const output = count(usage.completion_tokens);
  const cached = count(usage.prompt_tokens_details?.cached_tokens);
  const cacheWrite = count(usage.prompt_tokens_details?.cache_write_tokens);
  const reasoning = count(usage.completion_tokens_details?.reasoning_tokens);
  const webSearch = count(usage.server_tool_use_details?.web_search_requests);
  if (input !== undefined) decoded.inputTokens = input;
  if (output !== undefined) decoded.outputTokens = output;
  if (cached !== undefined) decoded.cachedTokens = cached;
  if (cacheWrite !== undefined) decoded.cacheWriteTokens = cacheWrite;
  if (reasoning !== undefined) decoded.reasoningTokens = reasoning;
  if (webSearch !== undefined) decoded.webSearchRequests = webSearch;
  return decoded;
}
