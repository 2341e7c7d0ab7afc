import { type Static, t } from "elysia";
import { ServiceMetadataSchema } from "../service-metadata";
import { CacheControlSchema, gatewayRequestFields, JsonInteger, Metadata, ReasoningEffortSchema, ServiceTier } from "../shared-schema";
import { ChatMessageSchema, ReasoningDetailSchema, type TextPartSchema, ToolCallSchema } from "./schema-messages";

/** `POST /chat/completions` request body (OpenRouter's ChatRequest) and its result (ChatResult). */

const opt = t.Optional;
const optNull = <T extends Parameters<typeof t.Nullable>[0]>(schema: T) => t.Optional(t.Nullable(schema));

const FunctionTool = t.Object({
  type: t.Literal("function"),
  function: t.Object({
    name: t.String({ maxLength: 64 }),
    description: opt(t.String()),
    parameters: opt(t.Record(t.String(), t.Unknown())),
    strict: optNull(t.Boolean()),
  }),
  cache_control: opt(CacheControlSchema),
});

// OpenRouter server tools (`openrouter:web_search`, `web_search`, …). Their settings
// are the tool author's business; the pattern keeps a malformed function tool from
// slipping through this looser branch.
const ServerTool = t.Object({ type: t.String({ pattern: "^(?!function$)" }), parameters: opt(t.Unknown()) }, { additionalProperties: true });

const ToolChoice = t.Union([
  t.Literal("none"),
  t.Literal("auto"),
  t.Literal("required"),
  t.Object({ type: t.Literal("function"), function: t.Object({ name: t.String() }) }),
  t.Object({ type: t.String({ pattern: "^(?!function$)" }) }),
]);

const ResponseFormat = t.Union([
  t.Object({ type: t.Literal("text") }),
  t.Object({ type: t.Literal("json_object") }),
  t.Object({
    type: t.Literal("json_schema"),
    json_schema: t.Object({
      name: t.String({ maxLength: 64 }),
      schema: opt(t.Record(t.String(), t.Unknown())),
      description: opt(t.String()),
      strict: optNull(t.Boolean()),
    }),
  }),
  t.Object({ type: t.Literal("grammar"), grammar: t.String() }),
  t.Object({ type: t.Literal("python") }),
]);

const ReasoningRequest = t.Object({
  effort: optNull(ReasoningEffortSchema),
  summary: optNull(t.Union([t.Literal("auto"), t.Literal("concise"), t.Literal("detailed")])),
  // OpenRouter's unified reasoning config also takes a budget and an on/off switch.
  max_tokens: optNull(JsonInteger({ minimum: 0 })),
  enabled: optNull(t.Boolean()),
  exclude: optNull(t.Boolean()),
  context: optNull(t.String()),
  mode: optNull(t.String()),
});

const Prediction = t.Object({
  type: t.Literal("content"),
  content: t.Union([t.String(), t.Array(t.Object({ type: t.Literal("text"), text: t.String() }))]),
});

export const ChatRequestSchema = t.Object(
  {
    ...gatewayRequestFields,
    messages: t.Array(ChatMessageSchema, { minItems: 1 }),
    model: opt(t.String()),
    stream: opt(t.Boolean({ description: "default false" })),
    stream_options: optNull(t.Object({ include_usage: opt(t.Boolean()) })),
    temperature: optNull(t.Number({ minimum: 0, maximum: 2 })),
    top_p: optNull(t.Number({ minimum: 0, maximum: 1 })),
    top_k: optNull(JsonInteger()),
    top_a: optNull(t.Number()),
    min_p: optNull(t.Number()),
    frequency_penalty: optNull(t.Number({ minimum: -2, maximum: 2 })),
    presence_penalty: optNull(t.Number({ minimum: -2, maximum: 2 })),
    repetition_penalty: optNull(t.Number()),
    seed: optNull(JsonInteger()),
    max_tokens: optNull(JsonInteger({ minimum: 1 })),
    max_completion_tokens: optNull(JsonInteger({ minimum: 1 })),
    stop: optNull(t.Union([t.String(), t.Array(t.String(), { maxItems: 4 })])),
    logit_bias: optNull(t.Record(t.String(), t.Number())),
    logprobs: optNull(t.Boolean()),
    top_logprobs: optNull(JsonInteger({ minimum: 0, maximum: 20 })),
    response_format: opt(ResponseFormat),
    tools: opt(t.Array(t.Union([FunctionTool, ServerTool]))),
    tool_choice: opt(ToolChoice),
    parallel_tool_calls: optNull(t.Boolean()),
    reasoning: opt(ReasoningRequest),
    reasoning_effort: optNull(ReasoningEffortSchema),
    modalities: opt(t.Array(t.String())),
    image_config: opt(t.Record(t.String(), t.Union([t.String(), t.Number(), t.Array(t.Unknown())]))),
    prediction: optNull(Prediction),
    metadata: opt(Metadata),
    service_tier: optNull(ServiceTier),
    cache_control: opt(CacheControlSchema),
    prompt_cache_key: optNull(t.String()),
    prompt_cache_options: optNull(t.Object({ mode: t.Literal("explicit"), ttl: optNull(t.String()) })),
  },
  { additionalProperties: true },
);

export type ChatRequestBody = Static<typeof ChatRequestSchema>;
export type ChatMessageBody = ChatRequestBody["messages"][number];
export type ChatTextPartBody = Static<typeof TextPartSchema>;

/** ChatUsage as the gateway writes it: tokens, and what the gateway charged. */
const ChatUsageSchema = t.Object({
  prompt_tokens: JsonInteger(),
  completion_tokens: JsonInteger(),
  total_tokens: JsonInteger(),
  cost: t.Number(),
  is_byok: t.Boolean(),
  cost_details: t.Object({
    upstream_inference_cost: t.Nullable(t.Number()),
    upstream_inference_prompt_cost: t.Number(),
    upstream_inference_completions_cost: t.Number(),
  }),
  prompt_tokens_details: t.Object({ cached_tokens: JsonInteger(), cache_write_tokens: JsonInteger() }),
  completion_tokens_details: t.Object({ reasoning_tokens: JsonInteger() }),
  server_tool_use_details: opt(t.Object({ web_search_requests: JsonInteger() })),
});

const ChatAnswerSchema = t.Object({
  role: t.Literal("assistant"),
  content: t.Nullable(t.String()),
  refusal: t.Nullable(t.String()),
  reasoning: t.Nullable(t.String()),
  tool_calls: opt(t.Array(ToolCallSchema)),
  reasoning_details: opt(t.Array(ReasoningDetailSchema)),
});

export const ChatFinishReasonSchema = t.UnionEnum(["stop", "length", "tool_calls", "content_filter", "error"]);

export const ChatResultSchema = t.Object({
  id: t.String(),
  object: t.Literal("chat.completion"),
  created: JsonInteger(),
  model: t.String(),
  provider: opt(t.String({ description: "display name of the provider that served (OpenRouter extension)" })),
  system_fingerprint: t.Nullable(t.String()),
  choices: t.Array(
    t.Object({
      index: JsonInteger(),
      message: ChatAnswerSchema,
      finish_reason: t.Nullable(ChatFinishReasonSchema),
      native_finish_reason: t.Nullable(t.String({ description: "the upstream's own finish reason (OpenRouter extension)" })),
      logprobs: optNull(t.Object({ content: t.Nullable(t.Array(t.Unknown())), refusal: optNull(t.Array(t.Unknown())) })),
    }),
  ),
  usage: ChatUsageSchema,
  service_metadata: opt(ServiceMetadataSchema),
});

export type ChatResult = Static<typeof ChatResultSchema>;
export type ChatUsage = Static<typeof ChatUsageSchema>;
export type ChatAnswer = Static<typeof ChatAnswerSchema>;
export type ChatReasoningDetail = Static<typeof ReasoningDetailSchema>;
