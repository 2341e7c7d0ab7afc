import type { IRRequest } from "../../ir/types";
import { prependSystemPrompt } from "./system-prompt";

/** The IR field each `sentParameters` name stands for (the names of OpenRouter's `supported_parameters`). */
const PARAMETER_FIELD: Record<string, keyof IRRequest> = {
  temperature: "temperature",
  top_p: "topP",
  top_k: "topK",
  frequency_penalty: "frequencyPenalty",
  presence_penalty: "presencePenalty",
  repetition_penalty: "repetitionPenalty",
  min_p: "minP",
  top_a: "topA",
  seed: "seed",
  max_tokens: "maxOutputTokens",
  stop: "stop",
  logit_bias: "logitBias",
  logprobs: "logprobs",
  top_logprobs: "topLogprobs",
  tools: "tools",
  tool_choice: "toolChoice",
  parallel_tool_calls: "parallelToolCalls",
  response_format: "responseFormat",
  structured_outputs: "responseFormat",
  reasoning: "reasoning",
};

/** What a preset cannot set: the conversation and the switches of one request. */
const REQUEST_ONLY = new Set<string>(["messages", "stream", "sentParameters", "instructions", "store", "previousResponseId"]);

/**
 * A request's IR over its preset's. Each field the request set wins whole (`provider`,
 * `reasoning`, `tools`, `models` are replaced, not combined, as a shallow merge of bodies would);
 * the preset fills the others. The parameters counted as sent are the request's and those of the
 * preset's that describe a field the request left to it. The preset's system prompt goes before
 * the request's own instructions.
 */
export function mergePresetIR(preset: IRRequest, request: IRRequest, systemPrompt: string | null): IRRequest {
  const merged: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(preset)) if (value !== undefined && !REQUEST_ONLY.has(key)) merged[key] = value;
  for (const [key, value] of Object.entries(request)) if (value !== undefined) merged[key] = value;
  const sent = new Set(request.sentParameters);
  for (const name of preset.sentParameters) {
    const field = PARAMETER_FIELD[name];
    if (field === undefined || request[field] === undefined) sent.add(name);
  }
  merged.sentParameters = [...sent];
  if (systemPrompt) Object.assign(merged, prependSystemPrompt(request, systemPrompt));
  return merged as IRRequest;
}
