import { isObject, present, type Json } from "./json";
import { toolChoiceToChat, toolToChat } from "./tools";

/**
 * A stored preset config (in the names of whichever endpoint created it) in Chat Completions
 * names, the gateway's canonical form for translation. Fields that already have chat names
 * pass unchanged and win over a translated field of the same meaning.
 */

/** Responses `text.format` → chat `response_format`. */
function responsesFormatToChat(format: unknown): unknown {
  if (!isObject(format) || format.type !== "json_schema") return format;
  const { type: _type, name, schema, description, strict } = format;
  return { type: "json_schema", json_schema: present({ name, schema, description, strict }) };
}

/** Anthropic `thinking` → the OpenRouter reasoning switch and budget. */
function thinkingToReasoning(thinking: unknown): Json {
  if (!isObject(thinking)) return {};
  if (thinking.type === "enabled") return present({ enabled: true, max_tokens: thinking.budget_tokens });
  if (thinking.type === "disabled") return { enabled: false };
  if (thinking.type === "adaptive") return { enabled: true };
  return {};
}

export function toChatConfig(config: Json): Json {
  const out: Json = {};
  const reasoning: Json = {};
  const put = (key: string, value: unknown) => {
    if (value !== undefined && value !== null && !(key in config)) out[key] = value;
  };
  for (const [key, value] of Object.entries(config)) {
    switch (key) {
      case "max_output_tokens":
        put("max_tokens", value);
        break;
      case "stop_sequences":
        put("stop", value);
        break;
      case "text":
        if (isObject(value)) {
          put("response_format", responsesFormatToChat(value.format));
          put("verbosity", value.verbosity);
        }
        break;
      case "thinking":
        Object.assign(reasoning, thinkingToReasoning(value));
        break;
      case "output_config":
        if (isObject(value)) {
          if (value.effort != null) reasoning.effort = value.effort;
          if (isObject(value.format)) put("response_format", { type: "json_schema", json_schema: { name: "output", schema: value.format.schema } });
        }
        break;
      case "fallbacks":
        if (Array.isArray(value)) put("models", value.flatMap((f) => (isObject(f) && typeof f.model === "string" ? [f.model] : [])));
        break;
      case "tools":
        out.tools = Array.isArray(value) ? value.map(toolToChat) : value;
        break;
      case "tool_choice": {
        const { choice, parallelToolCalls } = toolChoiceToChat(value);
        out.tool_choice = choice;
        put("parallel_tool_calls", parallelToolCalls);
        break;
      }
      default:
        out[key] = value;
    }
  }
  if (Object.keys(reasoning).length > 0) out.reasoning = { ...reasoning, ...(isObject(config.reasoning) ? config.reasoning : {}) };
  return out;
}
