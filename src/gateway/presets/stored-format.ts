import { CONFIG_FIELDS } from "./extract-config";
import type { PresetVersionRecord } from "../../store/store";
import type { InboundFormat } from "../codecs";
import { isObject, type Json } from "./json";

/**
 * The format whose codec reads a preset version's config: the one recorded when the version was
 * created, else (a version written before formats were recorded) the one its fields say.
 */
export const presetFormat = (version: PresetVersionRecord): InboundFormat => version.format ?? inferPresetFormat(version.config);

const ORDER: InboundFormat[] = ["openai-chat", "openai-responses", "anthropic-messages"];

/** The formats a tool's shape belongs to; undefined when it says nothing (server tools). */
function toolFormats(tool: unknown): InboundFormat[] | undefined {
  if (!isObject(tool)) return undefined;
  if (isObject(tool.function)) return ["openai-chat"];
  if ("input_schema" in tool) return ["anthropic-messages"];
  if (tool.type === "function") return ["openai-responses"];
  return undefined;
}

function toolChoiceFormats(choice: unknown): InboundFormat[] | undefined {
  if (typeof choice === "string") return ["openai-chat", "openai-responses"];
  if (!isObject(choice)) return undefined;
  if (isObject(choice.function)) return ["openai-chat"];
  if (choice.type === "function" || choice.type === "allowed_tools") return ["openai-responses"];
  if (choice.type === "auto" || choice.type === "any" || choice.type === "none" || choice.type === "tool") return ["anthropic-messages"];
  return undefined;
}

/**
 * A stored config is the part of one create body that its endpoint keeps (CONFIG_FIELDS), so
 * only the formats that keep every one of its fields can have made it (`max_output_tokens`,
 * `text`: Responses; `thinking`, `stop_sequences`, `output_config`: Messages; `stop`, `seed`,
 * `response_format`: Chat). Tools and tool choices, written differently in each format, narrow
 * that further. What is left open has the same names and shapes in every remaining format and
 * decodes alike, so the first in Chat, Responses, Messages order is as good as any.
 */
export function inferPresetFormat(config: Json): InboundFormat {
  const keys = Object.keys(config);
  const keeping = ORDER.filter((format) => keys.every((key) => CONFIG_FIELDS[format].has(key)));
  let candidates = keeping.length > 0 ? keeping : ORDER;
  const hints = [...(Array.isArray(config.tools) ? config.tools.map(toolFormats) : []), toolChoiceFormats(config.tool_choice)];
  for (const hint of hints) {
    const narrowed = hint ? candidates.filter((format) => hint.includes(format)) : candidates;
    if (narrowed.length > 0) candidates = narrowed;
  }
  return candidates[0]!;
}
