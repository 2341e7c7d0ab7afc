import type { EncodeContext } from "../../../src/ir/codec";
import type { Settlement } from "../../../src/ir/settlement";
import type { IRRequest, IRResult, IRStreamPart, IRUsage } from "../../../src/ir/types";

export const usage: IRUsage = {
  inputTokens: 120,
  outputTokens: 80,
  cachedTokens: 20,
  cacheWriteTokens: 5,
  reasoningTokens: 30,
};

export const settlement: Settlement = {
  cost: 0.0012,
  isByok: false,
  costDetails: { upstreamInferencePromptCost: 0.0004, upstreamInferenceCompletionsCost: 0.0008, upstreamInferenceCost: null },
};

export const encodedUsage = {
  input_tokens: 120,
  input_tokens_details: { cached_tokens: 20, cache_write_tokens: 5 },
  output_tokens: 80,
  output_tokens_details: { reasoning_tokens: 30 },
  total_tokens: 200,
  cost: 0.0012,
  is_byok: false,
  cost_details: { upstream_inference_cost: null, upstream_inference_input_cost: 0.0004, upstream_inference_output_cost: 0.0008 },
};

export const request: IRRequest = {
  model: "openai/gpt-5",
  messages: [
    { role: "system", content: [{ type: "text", text: "Be brief." }] },
    { role: "user", content: [{ type: "text", text: "Weather in Paris and Rome?" }] },
  ],
  stream: true,
  maxOutputTokens: 500,
  temperature: 0.2,
  tools: [{ type: "function", name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } }],
  toolChoice: { type: "auto" },
  reasoning: { effort: "low", summary: "auto" },
  metadata: { team: "a" },
  sentParameters: ["temperature", "max_tokens", "tools", "tool_choice", "reasoning"],
  instructions: "Be brief.",
};

export const ctx: EncodeContext = { generationId: "gen-1", model: "openai/gpt-5", created: 1_700_000_000, request };

/** The same request without `reasoning.summary`: reasoning then goes out as reasoning_text. */
export const ctxWithoutSummary: EncodeContext = { ...ctx, request: { ...request, reasoning: { effort: "low" } } };

/** Fixed "now" for completed_at: 1_700_000_100 seconds. */
export const NOW = new Date(1_700_000_100_000);

/** Reasoning (summary, encrypted) → text → two tool calls → finish, as an upstream decoder would produce it. */
export const irStream: IRStreamPart[] = [
  { type: "start", id: "resp_up", model: "gpt-5" },
  { type: "block-start", index: 0, block: { type: "reasoning", origin: "openai-responses", id: "rs_up", summary: true } },
  { type: "reasoning-delta", index: 0, text: "Need two " },
  { type: "reasoning-delta", index: 0, text: "lookups." },
  { type: "reasoning-encrypted", index: 0, data: "ENC" },
  { type: "block-end", index: 0 },
  { type: "block-start", index: 1, block: { type: "text" } },
  { type: "text-delta", index: 1, text: "Checking " },
  { type: "text-delta", index: 1, text: "both." },
  { type: "block-end", index: 1 },
  { type: "block-start", index: 2, block: { type: "tool_call", id: "call_a", name: "get_weather" } },
  { type: "tool-args-delta", index: 2, delta: '{"city":' },
  { type: "tool-args-delta", index: 2, delta: '"Paris"}' },
  { type: "block-end", index: 2 },
  { type: "block-start", index: 3, block: { type: "tool_call", id: "call_b", name: "get_weather" } },
  { type: "tool-args-delta", index: 3, delta: '{"city":"Rome"}' },
  { type: "block-end", index: 3 },
  { type: "finish", finishReason: "tool_calls", usage },
];

/** irStream as one whole result, as a non-streaming upstream answer decodes. */
export const irResult: IRResult = {
  id: "resp_up",
  model: "gpt-5",
  content: [
    { type: "reasoning", text: "Need two lookups.", summary: true, id: "rs_up", encrypted: "ENC", origin: "openai-responses" },
    { type: "text", text: "Checking both." },
    { type: "tool_call", id: "call_a", name: "get_weather", arguments: '{"city":"Paris"}' },
    { type: "tool_call", id: "call_b", name: "get_weather", arguments: '{"city":"Rome"}' },
  ],
  finishReason: "tool_calls",
  usage,
};

/** The output every encoding of irStream must end with. */
export const expectedOutput = [
  {
    type: "reasoning",
    id: "rs_up",
    summary: [{ type: "summary_text", text: "Need two lookups." }],
    encrypted_content: "ENC",
  },
  {
    type: "message",
    id: "msg_gen-1_1",
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text: "Checking both.", annotations: [] }],
  },
  { type: "function_call", id: "fc_gen-1_2", call_id: "call_a", name: "get_weather", arguments: '{"city":"Paris"}', status: "completed" },
  { type: "function_call", id: "fc_gen-1_3", call_id: "call_b", name: "get_weather", arguments: '{"city":"Rome"}', status: "completed" },
];
