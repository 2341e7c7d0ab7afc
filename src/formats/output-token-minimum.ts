import type { ApiKindName } from "../config-schema";

/**
 * The least output limit each upstream API takes; a limit under it would be refused, so it is
 * raised to it. OpenAI's Responses API answers a `max_output_tokens` under 16 with 400
 * `integer_below_min_value` ("Expected a value >= 16"); Anthropic's Messages reference gives
 * `max_tokens` as `x >= 1`; Chat Completions documents no minimum for `max_tokens` or
 * `max_completion_tokens`, and 1 is the least the gateway's own request schemas take. Bedrock's
 * Converse reference gives `inferenceConfig.maxTokens` a minimum of 1. Gemini's
 * `maxOutputTokens` (Vertex's too; its Claude models take Anthropic's) documents no minimum either.
 */
export const MIN_OUTPUT_TOKENS: Readonly<Record<ApiKindName, number>> = {
  "openai-responses": 16,
  "anthropic-messages": 1,
  "openai-chat": 1,
  "azure-openai": 1,
  bedrock: 1,
  gemini: 1,
  vertex: 1,
};
