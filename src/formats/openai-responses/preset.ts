import type { PresetRole } from "../../ir/codec";
import { isObject, nonEmpty, SHARED_PRESET_FIELDS } from "../preset-fields";
import { ResponsesRequestSchema } from "./schema";

/** Responses presets: its output and tool fields; `instructions` is the system prompt. */
export const responsesPreset: PresetRole = {
  configFields: new Set([
    ...SHARED_PRESET_FIELDS,
    "frequency_penalty",
    "presence_penalty",
    "top_logprobs",
    "max_output_tokens",
    "max_tool_calls",
    "parallel_tool_calls",
    "reasoning",
    "text",
    "include",
    "truncation",
    "modalities",
    "image_config",
  ]),
  requestSchema: ResponsesRequestSchema,
  noConversation: { input: [] },
  systemPrompt: (body) => (typeof body.instructions === "string" ? nonEmpty(body.instructions) : null),
  // {type: "function", name, parameters}: flat, where Chat nests it under `function`
  ownsTool: (tool) => tool.type === "function" && !isObject(tool.function) && !("input_schema" in tool),
  ownsToolChoice: (choice) =>
    typeof choice === "string" || (isObject(choice) && !isObject(choice.function) && (choice.type === "function" || choice.type === "allowed_tools")),
};
