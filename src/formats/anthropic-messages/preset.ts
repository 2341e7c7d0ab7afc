import type { PresetRole } from "../../ir/codec";
import { isObject, nonEmpty, SHARED_PRESET_FIELDS, textOf } from "../preset-fields";
import { MessagesRequestSchema } from "./schema";

/** Messages presets: its thinking and output fields; `system` is the system prompt. */
export const messagesPreset: PresetRole = {
  configFields: new Set([
    ...SHARED_PRESET_FIELDS,
    "max_tokens",
    "stop_sequences",
    "thinking",
    "output_config",
    "context_management",
    "speed",
    "fallbacks",
    "safeguards",
  ]),
  requestSchema: MessagesRequestSchema,
  noConversation: { messages: [] },
  systemPrompt: (body) => nonEmpty(textOf(body.system, "\n\n")),
  // {name, input_schema}
  ownsTool: (tool) => "input_schema" in tool && !isObject(tool.function),
  ownsToolChoice: (choice) =>
    isObject(choice) && !isObject(choice.function) && (choice.type === "auto" || choice.type === "any" || choice.type === "none" || choice.type === "tool"),
};
