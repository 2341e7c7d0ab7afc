import type { TSchema } from "elysia";
import { AnthropicErrorBodySchema } from "../../formats/anthropic-messages";
import { ErrorBodySchema } from "../../http/openapi/error-responses";

export { MessagesResultSchema as MessagesResult } from "../../formats/anthropic-messages";
/**
 * OpenAPI `responses` of the inference endpoints. The result schemas are the formats' own: each
 * codec's encodeResult returns their static type, so the document and the encoders cannot drift.
 * They are not used to validate responses on the hot path.
 */
export { ChatResultSchema as ChatResult } from "../../formats/openai-chat";
export { ResponsesResultSchema as ResponsesResult } from "../../formats/openai-responses";

/** OpenAPI `responses` for an inference route: JSON result, SSE stream, errors. */
export function inferenceResponses(result: TSchema, streamNote: string, anthropicErrors = false) {
  const error = { description: "Error", content: { "application/json": { schema: anthropicErrors ? AnthropicErrorBodySchema : ErrorBodySchema } } };
  return {
    200: {
      description: `The result, or with \`stream: true\` a text/event-stream of ${streamNote}. Header X-Generation-Id names the generation.`,
      content: { "application/json": { schema: result }, "text/event-stream": { schema: { type: "string" } } },
    },
    400: error,
    401: error,
    402: error,
    403: error,
    404: error,
    408: error,
    413: error,
    429: error,
    502: error,
    503: error,
  };
}
