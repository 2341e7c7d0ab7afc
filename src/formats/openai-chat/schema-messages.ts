import { t } from "elysia";
import { CacheControlSchema, JsonInteger, ReasoningEffortSchema } from "../shared-schema";

/** Chat message shapes (OpenRouter's ChatMessages and its parts). */

const opt = t.Optional;
const nullable = t.Nullable;

export const ReasoningFormat = t.String({
  description: "unknown | openai-responses-v1 | anthropic-claude-v1 | google-gemini-v1 | … (open enum)",
});

const detailCommon = {
  format: opt(nullable(ReasoningFormat)),
  id: opt(nullable(t.String())),
  index: opt(JsonInteger()),
};

export const ReasoningDetailSchema = t.Union([
  t.Object({ type: t.Literal("reasoning.text"), text: opt(nullable(t.String())), signature: opt(nullable(t.String())), ...detailCommon }),
  // The contract names no signature on a summary; one that came with it keeps it, as text items do.
  t.Object({ type: t.Literal("reasoning.summary"), summary: t.String(), signature: opt(nullable(t.String())), ...detailCommon }),
  t.Object({ type: t.Literal("reasoning.encrypted"), data: t.String(), ...detailCommon }),
  t.Object({
    type: t.Literal("reasoning.server_tool_call"),
    arguments: t.String(),
    result: t.String(),
    tool_name: t.String(),
    tool_call_id: opt(nullable(t.String())),
    ...detailCommon,
  }),
]);

export const TextPartSchema = t.Object({
  type: t.Literal("text"),
  text: t.String(),
  cache_control: opt(CacheControlSchema),
  prompt_cache_breakpoint: opt(nullable(t.Object({ mode: t.Literal("explicit") }))),
});

const ImagePartSchema = t.Object({
  type: t.Literal("image_url"),
  image_url: t.Object({
    url: t.String(),
    detail: opt(t.Union([t.Literal("auto"), t.Literal("low"), t.Literal("high"), t.Literal("original")])),
  }),
});

const AudioPartSchema = t.Object({
  type: t.Literal("input_audio"),
  input_audio: t.Object({ data: t.String(), format: t.String() }),
});

const VideoPartSchema = t.Object({
  type: t.Union([t.Literal("video_url"), t.Literal("input_video")]),
  video_url: t.Object({ url: t.String(), processing: opt(t.String()) }),
});

const FilePartSchema = t.Object({
  type: t.Literal("file"),
  file: t.Object({ file_data: opt(t.String()), file_id: opt(t.String()), filename: opt(t.String()) }),
});

export const ContentPartSchema = t.Union([TextPartSchema, ImagePartSchema, AudioPartSchema, VideoPartSchema, FilePartSchema]);

const ConfigurationUpdate = opt(nullable(t.Object({ reasoning: t.Object({ effort: ReasoningEffortSchema }) })));

const SystemMessage = t.Object({
  role: t.Literal("system"),
  content: t.Union([t.String(), t.Array(TextPartSchema)]),
  name: opt(t.String()),
  configuration_update: ConfigurationUpdate,
});

const DeveloperMessage = t.Object({
  role: t.Literal("developer"),
  content: t.Union([t.String(), t.Array(TextPartSchema)]),
  name: opt(t.String()),
  configuration_update: ConfigurationUpdate,
});

const UserMessage = t.Object({
  role: t.Literal("user"),
  content: t.Union([t.String(), t.Array(ContentPartSchema)]),
  name: opt(t.String()),
});

export const ToolCallSchema = t.Object({
  id: t.String(),
  type: t.Literal("function"),
  function: t.Object({ name: t.String(), arguments: t.String() }),
});

const AssistantMessage = t.Object({
  role: t.Literal("assistant"),
  content: opt(nullable(t.Union([t.String(), t.Array(ContentPartSchema)]))),
  name: opt(t.String()),
  tool_calls: opt(t.Array(ToolCallSchema)),
  reasoning: opt(nullable(t.String())),
  reasoning_details: opt(t.Array(ReasoningDetailSchema)),
  refusal: opt(nullable(t.String())),
  images: opt(t.Array(t.Object({ image_url: t.Object({ url: t.String() }) }))),
  audio: opt(t.Object({ data: opt(t.String()), expires_at: opt(JsonInteger()), id: opt(t.String()), transcript: opt(t.String()) })),
  model: opt(t.String()),
});

const ToolMessage = t.Object({
  role: t.Literal("tool"),
  tool_call_id: t.String(),
  content: t.Union([t.String(), t.Array(ContentPartSchema)]),
});

export const ChatMessageSchema = t.Union([SystemMessage, DeveloperMessage, UserMessage, AssistantMessage, ToolMessage]);
