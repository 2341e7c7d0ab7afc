import { t, type TSchema } from "elysia";

/**
 * Response shapes of the inference endpoints, for the OpenAPI document. They are not used to
 * validate responses on the hot path: the codecs' tests and the real SDKs check those.
 */

const Nullable = <T extends TSchema>(s: T) => t.Union([s, t.Null()]);
const ServiceMetadata = t.Optional(
  t.Object({
    requested: t.String(),
    model: t.String(),
    provider: Nullable(t.String()),
    generation_id: t.String(),
    is_byok: t.Boolean(),
    attempts: t.Array(t.Object({ model: t.String(), provider: t.String(), status: t.Integer(), latency: t.Number() })),
  }),
);

const ToolCall = t.Object({ id: t.String(), type: t.Literal("function"), function: t.Object({ name: t.String(), arguments: t.String() }) });

export const ChatResult = t.Object({
  id: t.String(),
  object: t.Literal("chat.completion"),
  created: t.Integer(),
  model: t.String(),
  system_fingerprint: Nullable(t.String()),
  choices: t.Array(
    t.Object({
      index: t.Integer(),
      finish_reason: Nullable(t.UnionEnum(["stop", "length", "tool_calls", "content_filter", "error"])),
      message: t.Object({
        role: t.Literal("assistant"),
        content: Nullable(t.String()),
        refusal: t.Optional(Nullable(t.String())),
        reasoning: t.Optional(Nullable(t.String())),
        reasoning_details: t.Optional(t.Array(t.Record(t.String(), t.Unknown()))),
        tool_calls: t.Optional(t.Array(ToolCall)),
      }),
    }),
  ),
  usage: t.Object({
    prompt_tokens: t.Integer(),
    completion_tokens: t.Integer(),
    total_tokens: t.Integer(),
    cost: t.Number(),
    is_byok: t.Boolean(),
    prompt_tokens_details: t.Object({ cached_tokens: t.Integer(), cache_write_tokens: t.Integer() }),
    completion_tokens_details: t.Object({ reasoning_tokens: t.Integer() }),
    cost_details: t.Object({ upstream_inference_cost: Nullable(t.Number()), upstream_inference_prompt_cost: t.Number(), upstream_inference_completions_cost: t.Number() }),
  }),
  service_metadata: ServiceMetadata,
});

export const ResponsesResult = t.Object({
  id: t.String(),
  object: t.Literal("response"),
  created_at: t.Integer(),
  completed_at: Nullable(t.Integer()),
  model: t.String(),
  status: t.UnionEnum(["completed", "incomplete", "in_progress", "failed", "cancelled", "queued"]),
  output: t.Array(t.Object({ type: t.String() }, { additionalProperties: true })),
  output_text: t.Optional(t.String()),
  error: Nullable(t.Object({ code: t.String(), message: t.String() })),
  incomplete_details: Nullable(t.Object({ reason: t.Optional(t.String()) })),
  usage: t.Object({
    input_tokens: t.Integer(),
    input_tokens_details: t.Object({ cached_tokens: t.Integer(), cache_write_tokens: t.Optional(t.Integer()) }),
    output_tokens: t.Integer(),
    output_tokens_details: t.Object({ reasoning_tokens: t.Integer() }),
    total_tokens: t.Integer(),
    cost: t.Number(),
    is_byok: t.Boolean(),
  }),
  service_metadata: ServiceMetadata,
});

export const MessagesResult = t.Object({
  id: t.String(),
  type: t.Literal("message"),
  role: t.Literal("assistant"),
  model: t.String(),
  content: t.Array(t.Object({ type: t.String() }, { additionalProperties: true })),
  stop_reason: Nullable(t.UnionEnum(["end_turn", "max_tokens", "stop_sequence", "tool_use", "pause_turn", "refusal", "model_context_window_exceeded"])),
  stop_sequence: Nullable(t.String()),
  usage: t.Object({
    input_tokens: t.Integer(),
    output_tokens: t.Integer(),
    cache_creation_input_tokens: Nullable(t.Integer()),
    cache_read_input_tokens: Nullable(t.Integer()),
    cost: t.Number(),
  }, { additionalProperties: true }),
  service_metadata: ServiceMetadata,
});

const ErrorBody = t.Object({ error: t.Object({ code: t.Integer(), message: t.String(), metadata: t.Optional(t.Record(t.String(), t.Unknown())) }) });
const AnthropicErrorBody = t.Object({ type: t.Literal("error"), error: t.Object({ type: t.String(), message: t.String() }), request_id: Nullable(t.String()) });

/** OpenAPI `responses` for an inference route: JSON result, SSE stream, errors. */
export function inferenceResponses(result: TSchema, streamNote: string, anthropicErrors = false) {
  const error = { description: "Error", content: { "application/json": { schema: anthropicErrors ? AnthropicErrorBody : ErrorBody } } };
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
