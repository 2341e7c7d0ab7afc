import type { InboundFormat } from "../codecs";

/**
 * What of an inference body a preset version keeps. Config fields are persisted verbatim,
 * in the field names of the endpoint the preset was created through (so `config` reads like
 * the body the user sent), beside that endpoint's format; at inference that format's codec
 * decodes them and the gateway merges them under the request in the IR (src/gateway/presets/).
 * Anything else — conversation content (`messages`, `input`, `prompt`), per-request switches
 * (`stream`, `stream_options`) and identity or tracing (`metadata`, `user`, `session_id`,
 * `trace`) — is transient and dropped.
 */

const SHARED = ["model", "models", "provider", "plugins", "stop_server_tools_when", "temperature", "top_p", "top_k", "tools", "tool_choice", "service_tier", "cache_control"];

export const CONFIG_FIELDS: Record<InboundFormat, ReadonlySet<string>> = {
  "openai-chat": new Set([
    ...SHARED,
    "top_a", "min_p", "frequency_penalty", "presence_penalty", "repetition_penalty", "seed",
    "max_tokens", "max_completion_tokens", "stop", "logit_bias", "logprobs", "top_logprobs",
    "response_format", "parallel_tool_calls", "reasoning", "reasoning_effort", "verbosity",
    "modalities", "image_config",
  ]),
  "openai-responses": new Set([
    ...SHARED,
    "frequency_penalty", "presence_penalty", "top_logprobs", "max_output_tokens", "max_tool_calls",
    "parallel_tool_calls", "reasoning", "text", "include", "truncation", "modalities", "image_config",
  ]),
  "anthropic-messages": new Set([
    ...SHARED,
    "max_tokens", "stop_sequences", "thinking", "output_config", "context_management", "speed", "fallbacks", "safeguards",
  ]),
};

export type ExtractedPreset = { config: Record<string, unknown>; systemPrompt: string | null };

type TextLike = string | Array<{ type?: string; text?: unknown }> | null | undefined;

function textOf(content: TextLike, separator: string): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.flatMap((part) => (typeof part?.text === "string" ? [part.text] : [])).join(separator);
}

const nonEmpty = (text: string): string | null => (text === "" ? null : text);

function chatSystemPrompt(body: Record<string, unknown>): string | null {
  const messages = Array.isArray(body.messages) ? (body.messages as Array<{ role?: string; content?: TextLike }>) : [];
  const system = messages.filter((m) => m.role === "system" || m.role === "developer").map((m) => textOf(m.content, ""));
  return nonEmpty(system.filter((text) => text !== "").join("\n\n"));
}

function systemPrompt(format: InboundFormat, body: Record<string, unknown>): string | null {
  if (format === "openai-chat") return chatSystemPrompt(body);
  if (format === "openai-responses") return typeof body.instructions === "string" ? nonEmpty(body.instructions) : null;
  return nonEmpty(textOf(body.system as TextLike, "\n\n"));
}

/** Splits a validated inference body into the preset's config and system prompt. */
export function extractPreset(format: InboundFormat, body: Record<string, unknown>): ExtractedPreset {
  const allowed = CONFIG_FIELDS[format];
  const config: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) if (allowed.has(key) && value !== undefined) config[key] = value;
  return { config, systemPrompt: systemPrompt(format, body) };
}
