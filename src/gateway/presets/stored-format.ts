import type { PresetVersionRecord } from "../../store/store";
import { type InboundFormat, inboundCodecs } from "../codecs";
import { isObject, type Json } from "./json";

/**
 * The format whose codec reads a preset version's config: the one recorded when the version was
 * created, else (a version written before formats were recorded) the one its fields say.
 */
export const presetFormat = (version: PresetVersionRecord): InboundFormat => version.format ?? inferPresetFormat(version.config);

const ORDER: InboundFormat[] = ["openai-chat", "openai-responses", "anthropic-messages"];

/** The formats that write a tool (or a tool choice) this way; undefined when its shape tells none apart. */
function formatsOwning(owns: (format: InboundFormat) => boolean): InboundFormat[] | undefined {
  const owners = ORDER.filter(owns);
  return owners.length > 0 ? owners : undefined;
}

const toolFormats = (tool: unknown) => (isObject(tool) ? formatsOwning((f) => inboundCodecs[f].preset.ownsTool(tool)) : undefined);
const toolChoiceFormats = (choice: unknown) => formatsOwning((f) => inboundCodecs[f].preset.ownsToolChoice(choice));

/**
 * A stored config is the part of one create body that its endpoint keeps (CONFIG_FIELDS), so
 * only the formats that keep every one of its fields can have made it (`PresetRole.configFields`) (`max_output_tokens`,
 * `text`: Responses; `thinking`, `stop_sequences`, `output_config`: Messages; `stop`, `seed`,
 * `response_format`: Chat). Tools and tool choices, written differently in each format, narrow
 * that further. What is left open has the same names and shapes in every remaining format and
 * decodes alike, so the first in Chat, Responses, Messages order is as good as any.
 */
export function inferPresetFormat(config: Json): InboundFormat {
  const keys = Object.keys(config);
  const keeping = ORDER.filter((format) => keys.every((key) => inboundCodecs[format].preset.configFields.has(key)));
  let candidates = keeping.length > 0 ? keeping : ORDER;
  const hints = [...(Array.isArray(config.tools) ? config.tools.map(toolFormats) : []), toolChoiceFormats(config.tool_choice)];
  for (const hint of hints) {
    const narrowed = hint ? candidates.filter((format) => hint.includes(format)) : candidates;
    if (narrowed.length > 0) candidates = narrowed;
  }
  return candidates[0]!;
}
