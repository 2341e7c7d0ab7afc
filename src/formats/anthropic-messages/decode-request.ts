import type { IRReasoningConfig, IRRequest, IRTool, IRToolChoice } from "../../ir/types";
import { sessionIdHeader } from "../session-header";
import { decodeMessage, decodeSystem } from "./decode-messages";
import { threadUnsupported } from "./errors";
import type { CustomToolParam, MessagesRequestBody } from "./schema";

type Tool = NonNullable<MessagesRequestBody["tools"]>[number];

function isCustomTool(tool: Tool): tool is CustomToolParam {
  return (tool.type === undefined || tool.type === "custom") && "input_schema" in tool;
}

function decodeTool(tool: CustomToolParam): IRTool {
  const ir: IRTool = { type: "function", name: tool.name, parameters: tool.input_schema };
  if (tool.description !== undefined) ir.description = tool.description;
  if (tool.strict !== undefined) ir.strict = tool.strict;
  if (typeof tool.eager_input_streaming === "boolean") ir.eagerInputStreaming = tool.eager_input_streaming;
  if (tool.cache_control) ir.cacheControl = { ...tool.cache_control };
  return ir;
}

function decodeToolChoice(choice: NonNullable<MessagesRequestBody["tool_choice"]>): IRToolChoice {
  switch (choice.type) {
    case "auto":
      return { type: "auto" };
    case "any":
      return { type: "required" };
    case "none":
      return { type: "none" };
    case "tool":
      return { type: "tool", name: choice.name };
  }
}

function decodeReasoning(body: MessagesRequestBody): IRReasoningConfig | undefined {
  const reasoning: IRReasoningConfig = {};
  const thinking = body.thinking;
  if (thinking?.type === "enabled") {
    reasoning.enabled = true;
    reasoning.maxTokens = thinking.budget_tokens;
  } else if (thinking?.type === "disabled") reasoning.enabled = false;
  else if (thinking?.type === "adaptive") reasoning.enabled = true;
  const effort = body.output_config?.effort;
  if (effort) reasoning.effort = effort;
  return Object.keys(reasoning).length > 0 ? reasoning : undefined;
}

export function decodeRequest(body: MessagesRequestBody, headers?: Headers): IRRequest {
  if (body.thread) throw threadUnsupported();
  const sent = new Set<string>();
  const messages = [...(body.system !== undefined ? [decodeSystem(body.system)] : []), ...(body.messages ?? []).flatMap(decodeMessage)];
  const req: IRRequest = { model: body.model, messages, stream: body.stream === true, sentParameters: [] };

  const fallbackModels = body.fallbacks?.map((f) => f.model);
  if (body.models) req.models = body.models;
  else if (fallbackModels && fallbackModels.length > 0) req.models = fallbackModels;

  if (body.max_tokens !== undefined) {
    req.maxOutputTokens = body.max_tokens;
    sent.add("max_tokens");
  }
  if (body.temperature !== undefined) {
    req.temperature = body.temperature;
    sent.add("temperature");
  }
  if (body.top_p !== undefined) {
    req.topP = body.top_p;
    sent.add("top_p");
  }
  if (body.top_k !== undefined) {
    req.topK = body.top_k;
    sent.add("top_k");
  }
  if (body.stop_sequences && body.stop_sequences.length > 0) {
    req.stop = body.stop_sequences;
    sent.add("stop");
  }

  const tools = (body.tools ?? []).filter(isCustomTool).map(decodeTool);
  if (tools.length > 0) {
    req.tools = tools;
    sent.add("tools");
  }
  if (body.tool_choice) {
    req.toolChoice = decodeToolChoice(body.tool_choice);
    sent.add("tool_choice");
    if ("disable_parallel_tool_use" in body.tool_choice && body.tool_choice.disable_parallel_tool_use) {
      req.parallelToolCalls = false;
      sent.add("parallel_tool_calls");
    }
  }

  const reasoning = decodeReasoning(body);
  if (reasoning) {
    req.reasoning = reasoning;
    sent.add("reasoning");
  }
  const format = body.output_config?.format;
  if (format) {
    req.responseFormat = { type: "json_schema", name: "output", schema: format.schema };
    sent.add("response_format");
  }

  const user = body.user ?? body.metadata?.user_id ?? undefined;
  if (user) req.user = user;
  const sessionId = body.session_id ?? sessionIdHeader(headers);
  if (sessionId !== undefined) req.sessionId = sessionId;
  if (body.provider) req.provider = body.provider as Record<string, unknown>;
  if (body.plugins) req.plugins = body.plugins as Array<Record<string, unknown>>;
  if (body.trace) req.trace = body.trace as Record<string, unknown>;
  if (body.preset !== undefined) req.preset = body.preset;
  if (body.service_tier !== undefined) req.serviceTier = body.service_tier;
  if (body.cache_control) req.cacheControl = { ...body.cache_control };

  req.sentParameters = [...sent];
  return req;
}
