import { type InboundFormat, inboundCodecs } from "../codecs";

/**
 * What of an inference body a preset version keeps. Config fields are persisted verbatim,
 * in the field names of the endpoint the preset was created through (so `config` reads like
 * the body the user sent), beside that endpoint's format; at inference that format's codec
 * decodes them and the gateway merges them under the request in the IR (src/gateway/presets/).
 * Anything else — conversation content (`messages`, `input`, `prompt`), per-request switches
 * (`stream`, `stream_options`) and identity or tracing (`metadata`, `user`, `session_id`,
 * `trace`) — is transient and dropped. Which fields are which is each format's own
 * (`src/formats/<format>/preset.ts`).
 */

/** Each inbound format's preset fields, by format. */
export const CONFIG_FIELDS: Readonly<Record<InboundFormat, ReadonlySet<string>>> = {
  "openai-chat": inboundCodecs["openai-chat"].preset.configFields,
  "openai-responses": inboundCodecs["openai-responses"].preset.configFields,
  "anthropic-messages": inboundCodecs["anthropic-messages"].preset.configFields,
};

export type ExtractedPreset = { config: Record<string, unknown>; systemPrompt: string | null };

/** Splits a validated inference body into the preset's config and system prompt. */
export function extractPreset(format: InboundFormat, body: Record<string, unknown>): ExtractedPreset {
  const { preset } = inboundCodecs[format];
  const config: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) if (preset.configFields.has(key) && value !== undefined) config[key] = value;
  return { config, systemPrompt: preset.systemPrompt(body) };
}
