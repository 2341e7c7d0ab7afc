import { type Static, t } from "elysia";
import { ServiceMetadataSchema } from "../service-metadata";
import { CacheControlSchema, gatewayRequestFields, JsonInteger, Metadata, ReasoningEffortSchema, ServiceTier } from "../shared-schema";
import { Input, InputFilePart, InputImagePart, InputTextPart } from "./schema-messages";
import { OutputItemSchema } from "./schema-output";
import { TextConfig, TextFormat, Tool, ToolChoice } from "./schema-tools";

/** `POST /responses` request body (OpenRouter's ResponsesRequest) and its result (OpenResponsesResult). */

const opt = t.Optional;
const optNull = <T extends Parameters<typeof t.Nullable>[0]>(schema: T) => t.Optional(t.Nullable(schema));

const ReasoningConfig = t.Object({
  effort: optNull(ReasoningEffortSchema),
  summary: optNull(t.Union([t.Literal("auto"), t.Literal("concise"), t.Literal("detailed")])),
  enabled: optNull(t.Boolean()),
  max_tokens: optNull(JsonInteger({ minimum: 0 })),
  mode: optNull(t.Union([t.Literal("standard"), t.Literal("pro")])),
  context: optNull(t.Union([t.Literal("auto"), t.Literal("all_turns"), t.Literal("current_turn")])),
});

const IncludeValue = t.Union(
  [
    "file_search_call.results",
    "message.input_image.image_url",
    "computer_call_output.output.image_url",
    "reasoning.encrypted_content",
    "code_interpreter_call.outputs",
    "message.output_text.logprobs",
  ].map((value) => t.Literal(value)),
);

const StoredPrompt = t.Object({
  id: t.String(),
  variables: optNull(t.Record(t.String(), t.Union([t.String(), InputTextPart, InputImagePart, InputFilePart]))),
});

export const ResponsesRequestSchema = t.Object(
  {
    ...gatewayRequestFields,
    model: opt(t.String()),
    input: opt(Input),
    instructions: optNull(t.String()),
    stream: opt(t.Boolean()),
    max_output_tokens: optNull(JsonInteger({ minimum: 1 })),
    max_tool_calls: optNull(JsonInteger({ minimum: 0 })),
    temperature: optNull(t.Number({ minimum: 0, maximum: 2 })),
    top_p: optNull(t.Number({ minimum: 0, maximum: 1 })),
    top_k: opt(JsonInteger({ minimum: 0 })),
    top_logprobs: optNull(JsonInteger({ minimum: 0, maximum: 20 })),
    frequency_penalty: optNull(t.Number({ minimum: -2, maximum: 2 })),
    presence_penalty: optNull(t.Number({ minimum: -2, maximum: 2 })),
    parallel_tool_calls: optNull(t.Boolean()),
    tools: opt(t.Array(Tool)),
    tool_choice: opt(ToolChoice),
    reasoning: optNull(ReasoningConfig),
    text: opt(TextConfig),
    include: optNull(t.Array(IncludeValue)),
    service_tier: optNull(ServiceTier),
    truncation: optNull(t.Union([t.Literal("auto"), t.Literal("disabled")])),
    metadata: optNull(Metadata),
    background: optNull(t.Boolean()),
    prompt: optNull(StoredPrompt),
    prompt_cache_key: optNull(t.String()),
    prompt_cache_options: optNull(t.Object({ mode: t.Literal("explicit"), ttl: optNull(t.String()) })),
    cache_control: opt(CacheControlSchema),
    safety_identifier: optNull(t.String()),
    modalities: opt(t.Array(t.Union([t.Literal("text"), t.Literal("image")]))),
    image_config: opt(t.Record(t.String(), t.Union([t.String(), t.Number(), t.Array(t.Unknown())]))),
    // Not false: the answer's items are kept for responses.item_retention_minutes (see gateway/responses-state.ts).
    store: optNull(t.Boolean()),
    previous_response_id: optNull(t.String({ minLength: 1 })),
    // clients add fields faster than gateways learn them: unknown top-level fields are ignored (as on /chat/completions)
  },
  { additionalProperties: true },
);

export type ResponsesRequestBody = Static<typeof ResponsesRequestSchema>;

/** Usage as the gateway writes it: tokens, and what the gateway charged. */
const ResponsesUsageSchema = t.Object({
  input_tokens: JsonInteger(),
  input_tokens_details: t.Object({ cached_tokens: JsonInteger(), cache_write_tokens: JsonInteger() }),
  output_tokens: JsonInteger(),
  output_tokens_details: t.Object({ reasoning_tokens: JsonInteger() }),
  total_tokens: JsonInteger(),
  cost: t.Number(),
  is_byok: t.Boolean(),
  cost_details: t.Object({
    upstream_inference_cost: t.Nullable(t.Number()),
    upstream_inference_input_cost: t.Number(),
    upstream_inference_output_cost: t.Number(),
  }),
  server_tool_use_details: opt(t.Object({ web_search_requests: JsonInteger() })),
});

/** A request's function tool as the result echoes it (contract OpenResponsesResultToolFunction). */
const EchoedTool = t.Object({
  type: t.Literal("function"),
  name: t.String(),
  description: t.Nullable(t.String()),
  parameters: t.Nullable(t.Record(t.String(), t.Unknown())),
  strict: t.Nullable(t.Boolean()),
});

const Nullable = t.Nullable;

/** OpenResponsesResult as the gateway writes it, echoing the request. */
export const ResponsesResultSchema = t.Object({
  id: t.String(),
  object: t.Literal("response"),
  created_at: JsonInteger(),
  status: t.UnionEnum(["completed", "incomplete", "in_progress", "failed", "cancelled", "queued"]),
  background: t.Boolean(),
  completed_at: Nullable(JsonInteger()),
  error: Nullable(t.Object({ code: t.String(), message: t.String() })),
  incomplete_details: Nullable(t.Object({ reason: opt(t.UnionEnum(["max_output_tokens", "content_filter"])) })),
  instructions: Nullable(t.String()),
  max_output_tokens: Nullable(JsonInteger()),
  max_tool_calls: Nullable(JsonInteger()),
  model: t.String(),
  output: t.Array(OutputItemSchema),
  parallel_tool_calls: t.Boolean(),
  previous_response_id: Nullable(t.String()),
  prompt_cache_key: Nullable(t.String()),
  reasoning: Nullable(t.Object({ effort: Nullable(ReasoningEffortSchema), summary: Nullable(t.UnionEnum(["auto", "concise", "detailed"])) })),
  safety_identifier: Nullable(t.String()),
  service_tier: t.String(),
  store: t.Boolean(),
  temperature: Nullable(t.Number()),
  text: t.Object({ format: TextFormat }),
  tool_choice: ToolChoice,
  tools: t.Array(EchoedTool),
  top_logprobs: JsonInteger(),
  top_p: Nullable(t.Number()),
  presence_penalty: Nullable(t.Number()),
  frequency_penalty: Nullable(t.Number()),
  truncation: t.UnionEnum(["auto", "disabled"]),
  usage: Nullable(ResponsesUsageSchema),
  user: Nullable(t.String()),
  metadata: Nullable(t.Record(t.String(), t.String())),
  output_text: t.String(),
  error_type: opt(t.String({ description: "ApiErrorType, on a failed response" })),
  service_metadata: opt(ServiceMetadataSchema),
});

export type ResponsesResult = Static<typeof ResponsesResultSchema>;
export type ResponsesUsage = Static<typeof ResponsesUsageSchema>;
export type EchoedToolBody = Static<typeof EchoedTool>;
