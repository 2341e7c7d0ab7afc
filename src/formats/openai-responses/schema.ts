import { t, type Static } from "elysia";
import { CacheControlSchema, gatewayRequestFields, Metadata, ReasoningEffortSchema, ServiceTier } from "../shared-schema";
import { Input, InputFilePart, InputImagePart, InputTextPart } from "./schema-messages";
import { TextConfig, Tool, ToolChoice } from "./schema-tools";

/** `POST /responses` request body (contract §3.11 ResponsesRequest). */

const opt = t.Optional;
const optNull = <T extends Parameters<typeof t.Nullable>[0]>(schema: T) => t.Optional(t.Nullable(schema));

const ReasoningConfig = t.Object({
  effort: optNull(ReasoningEffortSchema),
  summary: optNull(t.Union([t.Literal("auto"), t.Literal("concise"), t.Literal("detailed")])),
  enabled: optNull(t.Boolean()),
  max_tokens: optNull(t.Integer({ minimum: 0 })),
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

export const ResponsesRequestSchema = t.Object({
  ...gatewayRequestFields,
  model: opt(t.String()),
  input: opt(Input),
  instructions: optNull(t.String()),
  stream: opt(t.Boolean()),
  max_output_tokens: optNull(t.Integer({ minimum: 1 })),
  max_tool_calls: optNull(t.Integer({ minimum: 0 })),
  temperature: optNull(t.Number({ minimum: 0, maximum: 2 })),
  top_p: optNull(t.Number({ minimum: 0, maximum: 1 })),
  top_k: opt(t.Integer({ minimum: 0 })),
  top_logprobs: optNull(t.Integer({ minimum: 0, maximum: 20 })),
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
  // The gateway keeps no conversation state: only `false` / null are meaningful.
  store: opt(t.Literal(false)),
  previous_response_id: opt(t.Null()),
});

export type ResponsesRequestBody = Static<typeof ResponsesRequestSchema>;
