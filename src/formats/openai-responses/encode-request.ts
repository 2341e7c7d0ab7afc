import type { IRReasoningConfig, IRRequest } from "../../ir/types";
import { effortFromBudget } from "../reasoning-budget";
import { encodeInput, hasResponsesReasoning } from "./encode-messages";
import { encodeResponseFormat, encodeToolChoice, encodeTools } from "./encode-tools";

/** IR → the body an OpenAI-compatible Responses upstream receives. Gateway-only fields stay behind. */

const UPSTREAM_SERVICE_TIERS = new Set(["auto", "default", "flex", "priority", "scale"]);

/** Returns undefined when reasoning is switched off: the upstream then uses its own default. */
function encodeReasoning(reasoning: IRReasoningConfig, maxOutputTokens?: number): Record<string, unknown> | undefined {
  if (reasoning.enabled === false || reasoning.effort === "none") return undefined;
  const effort = reasoning.effort ?? (reasoning.maxTokens !== undefined ? effortFromBudget(reasoning.maxTokens, maxOutputTokens) : undefined);
  const encoded: Record<string, unknown> = {};
  if (effort !== undefined) encoded.effort = effort;
  if (reasoning.summary !== undefined) encoded.summary = reasoning.summary;
  // `enabled: true` alone: ask for the upstream's usual amount of thinking explicitly.
  if (Object.keys(encoded).length === 0) encoded.effort = "medium";
  return encoded;
}

export function encodeResponsesRequest(req: IRRequest, upstreamModel: string): Record<string, unknown> {
  const body: Record<string, unknown> = { model: upstreamModel, input: encodeInput(req.messages) };
  if (req.maxOutputTokens !== undefined) body.max_output_tokens = req.maxOutputTokens;
  if (req.temperature !== undefined) body.temperature = req.temperature;
  if (req.topP !== undefined) body.top_p = req.topP;
  if (req.topLogprobs !== undefined) body.top_logprobs = req.topLogprobs;

  const reasoning = req.reasoning ? encodeReasoning(req.reasoning, req.maxOutputTokens) : undefined;
  if (reasoning) body.reasoning = reasoning;
  // store:false means the upstream keeps nothing, so reasoning survives a turn only as encrypted content.
  if (reasoning || hasResponsesReasoning(req.messages)) body.include = ["reasoning.encrypted_content"];
  body.store = false;

  if (req.responseFormat) body.text = { format: encodeResponseFormat(req.responseFormat) };
  if (req.tools && req.tools.length > 0) body.tools = encodeTools(req.tools);
  if (req.toolChoice) body.tool_choice = encodeToolChoice(req.toolChoice);
  if (req.parallelToolCalls !== undefined) body.parallel_tool_calls = req.parallelToolCalls;
  if (req.user !== undefined) body.user = req.user;
  if (req.promptCacheKey !== undefined) body.prompt_cache_key = req.promptCacheKey;
  if (req.serviceTier !== undefined) {
    const tier = req.serviceTier === "fast" ? "priority" : req.serviceTier;
    if (UPSTREAM_SERVICE_TIERS.has(tier)) body.service_tier = tier;
  }
  body.stream = req.stream;
  return body;
}
