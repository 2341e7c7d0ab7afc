import { type Static, t } from "elysia";
import { ServiceMetadataSchema } from "../service-metadata";
import { CacheControlSchema, gatewayRequestFields, JsonInteger } from "../shared-schema";
import { ANTHROPIC_STOP_REASONS } from "./finish-reason";

/**
 * Body of POST /messages (OpenRouter's MessagesRequest, OpenAPI spec 1.2.54), and its result (MessagesResult). Known block and
 * tool kinds are validated field by field; other kinds (server tools, search
 * results, compaction...) are accepted as open objects so a client using newer
 * Anthropic features is not refused, and the decoder skips what the IR cannot carry.
 */

const CacheControl = t.Optional(CacheControlSchema);

/** Matches any `type` other than the ones given, so an open fallback object cannot swallow a malformed known block. */
const otherType = (known: string[]) => t.String({ pattern: `^(?!(?:${known.join("|")})$)` });
const openObject = (known: string[]) => t.Object({ type: otherType(known) }, { additionalProperties: true });

export const TextBlockParam = t.Object({
  type: t.Literal("text"),
  text: t.String(),
  cache_control: CacheControl,
  citations: t.Optional(t.Nullable(t.Array(t.Unknown()))),
});

const Base64Source = t.Object({ type: t.Literal("base64"), media_type: t.String(), data: t.String() });
const UrlSource = t.Object({ type: t.Literal("url"), url: t.String() });
const FileSource = t.Object({ type: t.Literal("file"), file_id: t.String() });

export const ImageBlockParam = t.Object({
  type: t.Literal("image"),
  source: t.Union([Base64Source, UrlSource, FileSource]),
  cache_control: CacheControl,
});

const PlainTextSource = t.Object({ type: t.Literal("text"), media_type: t.Literal("text/plain"), data: t.String() });
const ContentSource = t.Object({
  type: t.Literal("content"),
  content: t.Union([t.String(), t.Array(t.Union([TextBlockParam, ImageBlockParam]))]),
});

export const DocumentBlockParam = t.Object({
  type: t.Literal("document"),
  source: t.Union([Base64Source, PlainTextSource, ContentSource, UrlSource, FileSource]),
  title: t.Optional(t.Nullable(t.String())),
  context: t.Optional(t.Nullable(t.String())),
  citations: t.Optional(t.Nullable(t.Object({ enabled: t.Optional(t.Boolean()) }))),
  cache_control: CacheControl,
});

const ToolUseBlockParam = t.Object({
  type: t.Literal("tool_use"),
  id: t.String(),
  name: t.String(),
  input: t.Optional(t.Unknown()),
  cache_control: CacheControl,
});

const ToolResultContentBlock = t.Union([TextBlockParam, ImageBlockParam, DocumentBlockParam, openObject(["text", "image", "document"])]);

const ToolResultBlockParam = t.Object({
  type: t.Literal("tool_result"),
  tool_use_id: t.String(),
  content: t.Optional(t.Union([t.String(), t.Array(ToolResultContentBlock)])),
  is_error: t.Optional(t.Boolean()),
  cache_control: CacheControl,
});

const ThinkingBlockParam = t.Object({ type: t.Literal("thinking"), thinking: t.String(), signature: t.String() });
const RedactedThinkingBlockParam = t.Object({ type: t.Literal("redacted_thinking"), data: t.String() });

const KNOWN_BLOCKS = ["text", "image", "document", "tool_use", "tool_result", "thinking", "redacted_thinking"];

export const ContentBlockParam = t.Union([
  TextBlockParam,
  ImageBlockParam,
  DocumentBlockParam,
  ToolUseBlockParam,
  ToolResultBlockParam,
  ThinkingBlockParam,
  RedactedThinkingBlockParam,
  openObject(KNOWN_BLOCKS),
]);

export const MessageParam = t.Object({
  role: t.Union([t.Literal("user"), t.Literal("assistant"), t.Literal("system")]),
  content: t.Union([t.String(), t.Array(ContentBlockParam)]),
});

const CustomTool = t.Object({
  type: t.Optional(t.Literal("custom")),
  name: t.String({ minLength: 1, maxLength: 128 }),
  description: t.Optional(t.String()),
  input_schema: t.Record(t.String(), t.Unknown()),
  strict: t.Optional(t.Boolean()),
  defer_loading: t.Optional(t.Boolean()),
  eager_input_streaming: t.Optional(t.Nullable(t.Boolean())),
  cache_control: CacheControl,
});

/** Anthropic server tools (web_search_20250305, bash...) and OpenRouter server tools (openrouter:web_search...). */
const ServerTool = openObject(["custom"]);

const ToolChoice = t.Union([
  t.Object({ type: t.Literal("auto"), disable_parallel_tool_use: t.Optional(t.Boolean()) }),
  t.Object({ type: t.Literal("any"), disable_parallel_tool_use: t.Optional(t.Boolean()) }),
  t.Object({ type: t.Literal("none") }),
  t.Object({ type: t.Literal("tool"), name: t.String(), disable_parallel_tool_use: t.Optional(t.Boolean()) }),
]);

const ThinkingDisplay = t.Optional(t.Nullable(t.String()));
const Thinking = t.Union([
  t.Object({
    type: t.Literal("enabled"),
    budget_tokens: JsonInteger({ minimum: 0 }),
    display: ThinkingDisplay,
    block_binding: t.Optional(t.Unknown()),
  }),
  t.Object({ type: t.Literal("disabled") }),
  t.Object({ type: t.Literal("adaptive"), display: ThinkingDisplay, block_binding: t.Optional(t.Unknown()) }),
]);

export const OutputEffort = t.Union([t.Literal("low"), t.Literal("medium"), t.Literal("high"), t.Literal("xhigh"), t.Literal("max")]);

const OutputConfig = t.Object({
  effort: t.Optional(t.Nullable(OutputEffort)),
  format: t.Optional(t.Nullable(t.Object({ type: t.Literal("json_schema"), schema: t.Record(t.String(), t.Unknown()) }))),
  task_budget: t.Optional(t.Nullable(t.Unknown())),
});

/** Anthropic's message threads: a conversation held by the server between turns. */
const ThreadParam = t.Union([t.Object({ type: t.Literal("create") }), t.Object({ type: t.Literal("continue"), previous_message_id: t.String() })]);

/** Anthropic's metadata carries only user_id and refuses other keys; so do we, rather than drop them silently. */
const AnthropicMetadata = t.Object({ user_id: t.Optional(t.Nullable(t.String({ maxLength: 256 }))) }, { additionalProperties: false });

export const MessagesRequestSchema = t.Object(
  {
    model: t.String(),
    messages: t.Nullable(t.Array(MessageParam)),
    max_tokens: t.Optional(JsonInteger({ minimum: 1 })),
    system: t.Optional(t.Union([t.String(), t.Array(TextBlockParam)])),
    stream: t.Optional(t.Boolean()),
    temperature: t.Optional(t.Number({ minimum: 0, maximum: 2 })),
    top_p: t.Optional(t.Number({ minimum: 0, maximum: 1 })),
    top_k: t.Optional(JsonInteger({ minimum: 0 })),
    stop_sequences: t.Optional(t.Array(t.String())),
    tools: t.Optional(t.Array(t.Union([CustomTool, ServerTool]))),
    tool_choice: t.Optional(ToolChoice),
    thinking: t.Optional(Thinking),
    metadata: t.Optional(AnthropicMetadata),
    output_config: t.Optional(OutputConfig),
    context_management: t.Optional(t.Nullable(t.Unknown())),
    cache_control: CacheControl,
    service_tier: t.Optional(t.String()),
    speed: t.Optional(t.Nullable(t.String())),
    fallbacks: t.Optional(t.Nullable(t.Array(t.Object({ model: t.String() }, { additionalProperties: true }), { maxItems: 3 }))),
    safeguards: t.Optional(t.Nullable(t.Array(t.Unknown()))),
    // declared so that it is refused (decode-request.ts) rather than ignored: the gateway holds no threads
    thread: t.Optional(t.Nullable(ThreadParam)),
    ...gatewayRequestFields,
    // clients add fields faster than gateways learn them: unknown top-level fields are ignored (as on /chat/completions)
  },
  { additionalProperties: true },
);

export type MessagesRequestBody = Static<typeof MessagesRequestSchema>;
export type MessagesContentBlock = Static<typeof ContentBlockParam>;
export type TextBlock = Static<typeof TextBlockParam>;
export type ImageBlock = Static<typeof ImageBlockParam>;
export type DocumentBlock = Static<typeof DocumentBlockParam>;
export type ToolUseBlock = Static<typeof ToolUseBlockParam>;
export type ToolResultBlock = Static<typeof ToolResultBlockParam>;
export type ThinkingBlock = Static<typeof ThinkingBlockParam>;
export type RedactedThinkingBlock = Static<typeof RedactedThinkingBlockParam>;
export type CustomToolParam = Static<typeof CustomTool>;
export type MessagesMessage = Static<typeof MessageParam>;

/** The content blocks an answer can hold: the IR's assistant parts as Anthropic blocks. */
const AnswerBlock = t.Union([
  t.Object({ type: t.Literal("text"), text: t.String(), citations: t.Nullable(t.Array(t.Record(t.String(), t.Unknown()))) }),
  t.Object({ type: t.Literal("tool_use"), id: t.String(), name: t.String(), input: t.Unknown() }),
  t.Object({ type: t.Literal("thinking"), thinking: t.String(), signature: t.String() }),
  t.Object({ type: t.Literal("redacted_thinking"), data: t.String() }),
]);

/** AnthropicUsage: what message_start reports before anything is charged. */
const MessagesUsageSchema = t.Object({
  input_tokens: JsonInteger({ description: "excluding cache reads and writes" }),
  output_tokens: JsonInteger(),
  cache_creation_input_tokens: t.Nullable(JsonInteger()),
  cache_read_input_tokens: t.Nullable(JsonInteger()),
  cache_creation: t.Nullable(t.Object({ ephemeral_5m_input_tokens: JsonInteger(), ephemeral_1h_input_tokens: JsonInteger() })),
  server_tool_use: t.Nullable(t.Object({ web_search_requests: JsonInteger(), web_fetch_requests: JsonInteger() })),
  service_tier: t.Nullable(t.UnionEnum(["standard", "priority", "batch"])),
  inference_geo: t.Nullable(t.String()),
  output_tokens_details: t.Nullable(t.Object({ thinking_tokens: JsonInteger() })),
});

/** OpenRouter's extension of the usage of a finished answer: what the gateway charged. */
const ChargeSchema = t.Object({
  cost: t.Number(),
  is_byok: t.Boolean(),
  cost_details: t.Object({
    upstream_inference_prompt_cost: t.Number(),
    upstream_inference_completions_cost: t.Number(),
    upstream_inference_cost: t.Nullable(t.Number()),
  }),
});

export const MessagesResultSchema = t.Object({
  id: t.String(),
  type: t.Literal("message"),
  role: t.Literal("assistant"),
  model: t.String(),
  content: t.Array(AnswerBlock),
  stop_reason: t.Nullable(t.UnionEnum([...ANTHROPIC_STOP_REASONS])),
  stop_sequence: t.Nullable(t.String()),
  stop_details: t.Nullable(t.Object({ type: t.Literal("refusal"), category: t.Nullable(t.String()), explanation: t.Nullable(t.String()) })),
  container: t.Nullable(t.Object({ id: t.String(), expires_at: t.String() })),
  usage: t.Composite([MessagesUsageSchema, ChargeSchema]),
  service_metadata: t.Optional(ServiceMetadataSchema),
});

export type MessagesResult = Static<typeof MessagesResultSchema>;
export type MessagesUsage = Static<typeof MessagesUsageSchema>;
export type MessagesAnswerBlock = Static<typeof AnswerBlock>;

/** Anthropic's error shape (OpenRouter's AnthropicMessagesErrorResponse), as the gateway writes it. */
export const AnthropicErrorBodySchema = t.Object({
  type: t.Literal("error"),
  error: t.Object({
    type: t.String(),
    message: t.String(),
    details: t.Optional(t.Object({ error_code: t.String() }, { additionalProperties: true })),
  }),
  request_id: t.Nullable(t.String()),
});
