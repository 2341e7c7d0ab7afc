import { t } from "elysia";

/** `tools` and `tool_choice` of a Responses request (OpenRouter's ResponsesRequest). */

const opt = t.Optional;
const optNull = <T extends Parameters<typeof t.Nullable>[0]>(schema: T) => t.Optional(t.Nullable(schema));

export const FunctionTool = t.Object({
  type: t.Literal("function"),
  name: t.String({ minLength: 1, maxLength: 64 }),
  description: optNull(t.String()),
  // The contract requires the key (nullable); OpenAI's clients always send it but others
  // omit it for argument-less tools, which means the same thing.
  parameters: optNull(t.Record(t.String(), t.Unknown())),
  strict: optNull(t.Boolean()),
  async: opt(t.Boolean()),
  defer_loading: opt(t.Boolean()),
});

/** Hosted and OpenRouter server tools: accepted by the schema, refused by decode-request with a clear message. */
export const HOSTED_TOOL_TYPES = [
  "web_search_preview",
  "web_search_preview_2025_03_11",
  "web_search",
  "web_search_2025_08_26",
  "file_search",
  "computer_use_preview",
  "code_interpreter",
  "mcp",
  "image_generation",
  "local_shell",
  "shell",
  "apply_patch",
  "custom",
  "namespace",
  "openrouter:advisor",
  "openrouter:subagent",
  "openrouter:datetime",
  "openrouter:files",
  "openrouter:fusion",
  "openrouter:image_generation",
  "openrouter:experimental__search_models",
  "openrouter:web_fetch",
  "openrouter:web_search",
  "openrouter:apply_patch",
  "openrouter:bash",
  "openrouter:shell",
  "openrouter:tool_search",
] as const;

const HostedTool = t.Object({ type: t.Union(HOSTED_TOOL_TYPES.map((type) => t.Literal(type))) }, { additionalProperties: true });

export const Tool = t.Union([FunctionTool, HostedTool]);

export const ToolChoice = t.Union([
  t.Literal("auto"),
  t.Literal("none"),
  t.Literal("required"),
  t.Object({ type: t.Literal("function"), name: t.String() }),
  t.Object({
    type: t.Literal("allowed_tools"),
    mode: t.Union([t.Literal("auto"), t.Literal("required")]),
    tools: t.Array(t.Record(t.String(), t.Unknown())),
  }),
  t.Object({
    type: t.Union([t.Literal("web_search_preview"), t.Literal("web_search_preview_2025_03_11"), t.Literal("apply_patch"), t.Literal("shell")]),
  }),
]);

export const TextFormat = t.Union([
  t.Object({ type: t.Literal("text") }),
  t.Object({ type: t.Literal("json_object") }),
  t.Object({
    type: t.Literal("json_schema"),
    name: t.String({ minLength: 1, maxLength: 64 }),
    schema: t.Record(t.String(), t.Unknown()),
    description: opt(t.String()),
    strict: optNull(t.Boolean()),
  }),
]);

export const TextConfig = t.Object({
  format: opt(TextFormat),
  verbosity: optNull(t.Union([t.Literal("low"), t.Literal("medium"), t.Literal("high"), t.Literal("xhigh"), t.Literal("max")])),
});
