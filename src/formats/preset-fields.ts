/** The config fields every inbound format's presets keep, in the same spelling. */
export const SHARED_PRESET_FIELDS = [
  "model",
  "models",
  "provider",
  "plugins",
  "stop_server_tools_when",
  "temperature",
  "top_p",
  "top_k",
  "tools",
  "tool_choice",
  "service_tier",
  "cache_control",
];

type TextLike = string | Array<{ type?: string; text?: unknown }> | null | undefined;

/** The text of a string or of an array of text parts. */
export function textOf(content: unknown, separator: string): string {
  const c = content as TextLike;
  if (typeof c === "string") return c;
  if (!Array.isArray(c)) return "";
  return c.flatMap((part) => (typeof part?.text === "string" ? [part.text] : [])).join(separator);
}

export const nonEmpty = (text: string): string | null => (text === "" ? null : text);

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
