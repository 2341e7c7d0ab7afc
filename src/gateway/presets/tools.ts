import type { InboundFormat } from "../codecs";
import { isObject, present } from "./json";

/**
 * Tools and tool choices between the three formats, through the Chat Completions form.
 * Each element is recognised by its own shape, so a stored config may mix forms. Tools with
 * no function (server / hosted tools) cross unchanged: the decoder of the target format
 * decides whether it can serve them, exactly as if the client had sent them.
 */

/** Chat `{type:"function", function:{...}}` from any format's function tool. */
export function toolToChat(tool: unknown): unknown {
  if (!isObject(tool) || isObject(tool.function) || typeof tool.name !== "string") return tool;
  if (tool.type === "function") {
    const { type: _type, name, description, parameters, strict, ...rest } = tool;
    return { type: "function", function: present({ name, description, parameters, strict }), ...rest };
  }
  if ((tool.type === undefined || tool.type === "custom") && "input_schema" in tool) {
    const { type: _type, name, description, input_schema, strict, ...rest } = tool;
    return { type: "function", function: present({ name, description, parameters: input_schema, strict }), ...rest };
  }
  return tool;
}

export function toolFromChat(tool: unknown, target: InboundFormat): unknown {
  if (target === "openai-chat" || !isObject(tool) || tool.type !== "function" || !isObject(tool.function)) return tool;
  const { type: _type, function: fn, ...rest } = tool;
  const { name, description, parameters, strict } = fn;
  if (target === "openai-responses") return { type: "function", ...present({ name, description, parameters, strict }), ...rest };
  return { ...present({ name, description, strict }), input_schema: parameters ?? { type: "object", properties: {} }, ...rest };
}

/** Chat tool_choice, plus `parallel_tool_calls: false` when Anthropic's choice disabled parallel use. */
export function toolChoiceToChat(choice: unknown): { choice: unknown; parallelToolCalls?: false } {
  if (!isObject(choice)) return { choice };
  const parallel = choice.disable_parallel_tool_use === true ? { parallelToolCalls: false as const } : {};
  switch (choice.type) {
    case "function":
      return isObject(choice.function) ? { choice } : { choice: { type: "function", function: { name: choice.name } } };
    case "tool":
      return { choice: { type: "function", function: { name: choice.name } }, ...parallel };
    case "auto":
      return { choice: "auto", ...parallel };
    case "any":
      return { choice: "required", ...parallel };
    case "none":
      return { choice: "none" };
    default:
      return { choice };
  }
}

const ANTHROPIC_CHOICE: Record<string, string> = { auto: "auto", required: "any", none: "none" };

/** `parallelToolCalls: false` folds into Anthropic's tool_choice (it has no separate switch). */
export function toolChoiceFromChat(choice: unknown, target: InboundFormat, parallelToolCalls?: unknown): unknown {
  if (target === "openai-chat") return choice;
  const fnName = isObject(choice) && choice.type === "function" && isObject(choice.function) ? choice.function.name : undefined;
  if (target === "openai-responses") return fnName !== undefined ? { type: "function", name: fnName } : choice;
  let converted: unknown = choice;
  if (fnName !== undefined) converted = { type: "tool", name: fnName };
  else if (typeof choice === "string" && ANTHROPIC_CHOICE[choice]) converted = { type: ANTHROPIC_CHOICE[choice] };
  else if (choice === undefined && parallelToolCalls === false) converted = { type: "auto" };
  if (parallelToolCalls === false && isObject(converted) && converted.type !== "none") converted = { ...converted, disable_parallel_tool_use: true };
  return converted;
}
