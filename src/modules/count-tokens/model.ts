import { t } from "elysia";
import { AnthropicErrorBodySchema } from "../../formats/anthropic-messages";

/** Anthropic's MessageTokensCount. */
export const MessageTokensCountSchema = t.Object({
  input_tokens: t.Integer({ description: "tokens of the system prompt, messages, tools and images, as the gateway counts them" }),
});

const error = { description: "Error", content: { "application/json": { schema: AnthropicErrorBodySchema } } };

/** OpenAPI `responses` of POST /messages/count_tokens: the count, or an error in Anthropic's shape. */
export const countTokensResponses = {
  200: { description: "The prompt's token count", content: { "application/json": { schema: MessageTokensCountSchema } } },
  400: error,
  401: error,
  403: error,
  404: error,
};
