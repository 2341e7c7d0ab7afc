import type { IRReasoningConfig, IRRequest, IRResponseFormat, IRTool, IRToolChoice, ReasoningEffort } from "../../ir/types";
import { assignDefined } from "../defined-fields";
import { effortFromBudget } from "../reasoning-budget";
import { encodeMessage } from "./encode-messages";

/**
 * IR request → Chat body for an upstream. Gateway-only fields (provider, models,
 * plugins, session_id, trace, preset, metadata) stay here: strict upstreams reject
 * unknown keys, and they are our business, not the upstream's.
 */

type Json = Record<string, unknown>;

function encodeTool(tool: IRTool): Json {
  const fn: Json = { name: tool.name };
  if (tool.description !== undefined) fn.description = tool.description;
  if (tool.parameters !== undefined) fn.parameters = tool.parameters;
  if (tool.strict !== undefined) fn.strict = tool.strict;
  return tool.cacheControl ? { type: "function", function: fn, cache_control: tool.cacheControl } : { type: "function", function: fn };
}

function encodeToolChoice(choice: IRToolChoice): unknown {
  return choice.type === "tool" ? { type: "function", function: { name: choice.name } } : choice.type;
}

function encodeResponseFormat(format: IRResponseFormat): Json {
  if (format.type !== "json_schema") return { type: format.type };
  const spec: Json = { name: format.name, schema: format.schema };
  if (format.description !== undefined) spec.description = format.description;
  if (format.strict !== undefined) spec.strict = format.strict;
  return { type: "json_schema", json_schema: spec };
}

function reasoningEffort(reasoning: IRReasoningConfig | undefined, maxOutputTokens?: number): ReasoningEffort | undefined {
  if (!reasoning || reasoning.enabled === false || reasoning.effort === "none") return undefined;
  if (reasoning.effort) return reasoning.effort;
  if (reasoning.maxTokens !== undefined) return effortFromBudget(reasoning.maxTokens, maxOutputTokens);
  return undefined;
}

export function encodeChatRequest(req: IRRequest, upstreamModel: string): Json {
  const body: Json = { model: upstreamModel, messages: req.messages.map(encodeMessage) };
  const optional: Json = {
    max_tokens: req.maxOutputTokens,
    temperature: req.temperature,
    top_p: req.topP,
    top_k: req.topK,
    frequency_penalty: req.frequencyPenalty,
    presence_penalty: req.presencePenalty,
    repetition_penalty: req.repetitionPenalty,
    min_p: req.minP,
    top_a: req.topA,
    seed: req.seed,
    stop: req.stop,
    logit_bias: req.logitBias,
    logprobs: req.logprobs,
    top_logprobs: req.topLogprobs,
    tools: req.tools?.map(encodeTool),
    tool_choice: req.toolChoice ? encodeToolChoice(req.toolChoice) : undefined,
    parallel_tool_calls: req.parallelToolCalls,
    response_format: req.responseFormat ? encodeResponseFormat(req.responseFormat) : undefined,
    reasoning_effort: reasoningEffort(req.reasoning, req.maxOutputTokens),
    // OpenRouter's `fast` is its alias of OpenAI's `priority`.
    service_tier: req.serviceTier === "fast" ? "priority" : req.serviceTier,
    prompt_cache_key: req.promptCacheKey,
    user: req.user,
  };
  assignDefined(body, optional);
  if (req.stream) {
    body.stream = true;
    body.stream_options = { include_usage: true };
  }
  return body;
}
