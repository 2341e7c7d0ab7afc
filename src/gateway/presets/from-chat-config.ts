import type { InboundFormat } from "../codecs";
import { isObject, present, type Json } from "./json";
import { toolChoiceFromChat, toolFromChat } from "./tools";

/**
 * A config in Chat Completions names (see to-chat-config.ts) in the names of the endpoint
 * the request came through. Chat fields with no equivalent in the target stay as they are:
 * that endpoint's decoder ignores them, as it would if the client had sent them.
 */

const ANTHROPIC_EFFORTS = new Set(["low", "medium", "high", "xhigh", "max"]);

function chatFormatToResponses(format: unknown): unknown {
  if (!isObject(format)) return undefined;
  if (format.type === "text" || format.type === "json_object") return { type: format.type };
  if (format.type !== "json_schema" || !isObject(format.json_schema)) return undefined; // grammar / python: chat only
  const { name, schema, description, strict } = format.json_schema;
  return { type: "json_schema", ...present({ name, schema: schema ?? {}, description, strict }) };
}

function toResponses(chat: Json): Json {
  const { max_tokens, max_completion_tokens, response_format, verbosity, reasoning_effort, ...out } = chat;
  const maxTokens = max_completion_tokens ?? max_tokens;
  if (maxTokens != null && out.max_output_tokens === undefined) out.max_output_tokens = maxTokens;
  const text = present({ format: chatFormatToResponses(response_format), verbosity });
  if (Object.keys(text).length > 0) out.text = text;
  if (reasoning_effort != null) out.reasoning = { effort: reasoning_effort, ...(isObject(out.reasoning) ? out.reasoning : {}) };
  return out;
}

function toMessages(chat: Json): Json {
  const { max_completion_tokens, stop, response_format, reasoning, reasoning_effort, verbosity: _verbosity, ...out } = chat;
  if (max_completion_tokens != null) out.max_tokens = max_completion_tokens;
  if (stop != null && out.stop_sequences === undefined) out.stop_sequences = typeof stop === "string" ? [stop] : stop;
  const outputConfig: Json = {};
  if (isObject(response_format) && response_format.type === "json_schema" && isObject(response_format.json_schema))
    outputConfig.format = { type: "json_schema", schema: response_format.json_schema.schema ?? {} };
  const r = isObject(reasoning) ? reasoning : {};
  const effort = r.effort ?? reasoning_effort;
  if (r.enabled === false || effort === "none") out.thinking = { type: "disabled" };
  else if (typeof r.max_tokens === "number") out.thinking = { type: "enabled", budget_tokens: r.max_tokens };
  else if (r.enabled === true) out.thinking = { type: "adaptive" };
  if (typeof effort === "string") {
    const anthropicEffort = effort === "minimal" ? "low" : effort;
    if (ANTHROPIC_EFFORTS.has(anthropicEffort)) outputConfig.effort = anthropicEffort;
  }
  if (Object.keys(outputConfig).length > 0) out.output_config = { ...outputConfig, ...(isObject(out.output_config) ? out.output_config : {}) };
  return out;
}

export function fromChatConfig(chat: Json, target: InboundFormat): Json {
  if (target === "openai-chat") return chat;
  const out = target === "openai-responses" ? toResponses(chat) : toMessages(chat);
  if (Array.isArray(out.tools)) out.tools = out.tools.map((tool) => toolFromChat(tool, target));
  const parallel = target === "anthropic-messages" ? out.parallel_tool_calls : undefined;
  if (out.tool_choice !== undefined || parallel === false) out.tool_choice = toolChoiceFromChat(out.tool_choice, target, parallel);
  if (target === "anthropic-messages") delete out.parallel_tool_calls;
  return out;
}
