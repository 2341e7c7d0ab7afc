import type { PresetRole } from "../../ir/codec";
import { isObject, nonEmpty, SHARED_PRESET_FIELDS, textOf } from "../preset-fields";
import { ChatRequestSchema } from "./schema";

/** Chat Completions presets: its sampling and output fields; the system and developer messages are the system prompt. */
export const chatPreset: PresetRole = {
  configFields: new Set([
    ...SHARED_PRESET_FIELDS,
    "top_a",
    "min_p",
    "frequency_penalty",
    "presence_penalty",
    "repetition_penalty",
    "seed",
    "max_tokens",
    "max_completion_tokens",
    "stop",
    "logit_bias",
    "logprobs",
    "top_logprobs",
    "response_format",
    "parallel_tool_calls",
    "reasoning",
    "reasoning_effort",
    "verbosity",
    "modalities",
    "image_config",
  ]),
  requestSchema: ChatRequestSchema,
  noConversation: { messages: [] },
  systemPrompt(body) {
    const messages = Array.isArray(body.messages) ? (body.messages as Array<{ role?: string; content?: unknown }>) : [];
    const system = messages.filter((m) => m.role === "system" || m.role === "developer").map((m) => textOf(m.content, ""));
    return nonEmpty(system.filter((text) => text !== "").join("\n\n"));
  },
  // {type: "function", function: {...}}
  ownsTool: (tool) => isObject(tool.function),
  ownsToolChoice: (choice) => typeof choice === "string" || (isObject(choice) && isObject(choice.function)),
};
