import { badRequest } from "../../errors";
import type { IRReasoningConfig, IRRequest, IRResponseFormat, IRTool, IRToolChoice, ReasoningEffort } from "../../ir/types";
import { sessionIdHeader } from "../session-header";
import { decodeInput } from "./decode-messages";
import type { ResponsesRequestBody } from "./schema";

type Tools = NonNullable<ResponsesRequestBody["tools"]>;
type ToolChoice = NonNullable<ResponsesRequestBody["tool_choice"]>;

function decodeTools(tools: Tools): IRTool[] {
  return tools.map((tool) => {
    if (tool.type !== "function") throw badRequest(`tool type "${tool.type}" is not supported by this gateway`, { field: "tools" });
    const decoded: IRTool = { type: "function", name: tool.name };
    if (tool.description != null) decoded.description = tool.description;
    if (tool.parameters != null) decoded.parameters = tool.parameters;
    if (tool.strict != null) decoded.strict = tool.strict;
    return decoded;
  });
}

/** `allowed_tools` narrows the tool list rather than naming a mode IR lacks. */
function decodeToolChoice(choice: ToolChoice, tools: IRTool[] | undefined): { choice: IRToolChoice; tools?: IRTool[] } {
  if (typeof choice === "string") return { choice: { type: choice } };
  if (choice.type === "function") return { choice: { type: "tool", name: choice.name } };
  if (choice.type === "allowed_tools") {
    const allowed = new Set(choice.tools.map((tool) => (tool.type === "function" ? tool.name : undefined)));
    return { choice: { type: choice.mode }, tools: (tools ?? []).filter((tool) => allowed.has(tool.name)) };
  }
  throw badRequest(`tool_choice type "${choice.type}" is not supported by this gateway`, { field: "tool_choice" });
}

function decodeFormat(format: NonNullable<NonNullable<ResponsesRequestBody["text"]>["format"]>): IRResponseFormat {
  if (format.type !== "json_schema") return { type: format.type };
  const decoded: IRResponseFormat = { type: "json_schema", name: format.name, schema: format.schema };
  if (format.description !== undefined) decoded.description = format.description;
  if (format.strict != null) decoded.strict = format.strict;
  return decoded;
}

function decodeReasoning(reasoning: NonNullable<ResponsesRequestBody["reasoning"]>): IRReasoningConfig {
  const decoded: IRReasoningConfig = {};
  // The schema admits exactly the ReasoningEffort literals; TypeBox widens a mapped union to string.
  if (reasoning.effort != null) decoded.effort = reasoning.effort as ReasoningEffort;
  if (reasoning.summary != null) decoded.summary = reasoning.summary;
  if (reasoning.max_tokens != null) decoded.maxTokens = reasoning.max_tokens;
  if (reasoning.enabled != null) decoded.enabled = reasoning.enabled;
  else if (reasoning.effort === "none") decoded.enabled = false;
  return decoded;
}

/** Stateful features a gateway without stored responses cannot honour. */
function refuseStatefulFeatures(body: ResponsesRequestBody): void {
  if (body.background) throw badRequest("background responses are not supported: the gateway stores no responses", { field: "background" });
  if (body.prompt) throw badRequest("stored prompt templates are not supported: send the prompt as input", { field: "prompt" });
}

export function decodeResponsesRequest(body: ResponsesRequestBody, headers?: Headers): IRRequest {
  refuseStatefulFeatures(body);
  const sent: string[] = [];
  const request: IRRequest = { messages: [], stream: body.stream ?? false, sentParameters: sent };

  if (body.instructions != null && body.instructions !== "") {
    request.instructions = body.instructions;
    request.messages.push({ role: "system", content: [{ type: "text", text: body.instructions }] });
  }
  request.messages.push(...decodeInput(body.input));

  if (body.model !== undefined) request.model = body.model;
  if (body.models !== undefined) request.models = body.models;

  const numbers = [
    ["temperature", body.temperature, "temperature"],
    ["top_p", body.top_p, "topP"],
    ["top_k", body.top_k, "topK"],
    ["frequency_penalty", body.frequency_penalty, "frequencyPenalty"],
    ["presence_penalty", body.presence_penalty, "presencePenalty"],
    ["max_tokens", body.max_output_tokens, "maxOutputTokens"],
    ["top_logprobs", body.top_logprobs, "topLogprobs"],
  ] as const;
  for (const [parameter, value, field] of numbers) {
    if (value == null) continue;
    request[field] = value;
    sent.push(parameter);
  }

  if (body.tools && body.tools.length > 0) {
    request.tools = decodeTools(body.tools);
    sent.push("tools");
  }
  if (body.tool_choice !== undefined) {
    const { choice, tools } = decodeToolChoice(body.tool_choice, request.tools);
    request.toolChoice = choice;
    if (tools) request.tools = tools;
    sent.push("tool_choice");
  }
  if (body.parallel_tool_calls != null) {
    request.parallelToolCalls = body.parallel_tool_calls;
    sent.push("parallel_tool_calls");
  }
  const format = body.text?.format;
  if (format) {
    request.responseFormat = decodeFormat(format);
    // Plain text is every model's default; only a real constraint narrows the providers.
    if (format.type !== "text") sent.push("response_format");
    if (format.type === "json_schema") sent.push("structured_outputs");
  }
  if (body.reasoning) {
    request.reasoning = decodeReasoning(body.reasoning);
    sent.push("reasoning");
  }

  if (body.metadata) request.metadata = body.metadata;
  if (body.user !== undefined) request.user = body.user;
  const sessionId = body.session_id ?? sessionIdHeader(headers);
  if (sessionId) request.sessionId = sessionId;
  if (body.provider) request.provider = body.provider;
  if (body.trace) request.trace = body.trace;
  if (body.plugins) request.plugins = body.plugins;
  if (body.preset !== undefined) request.preset = body.preset;
  if (body.service_tier != null) request.serviceTier = body.service_tier;
  if (body.prompt_cache_key != null) request.promptCacheKey = body.prompt_cache_key;
  if (body.cache_control) request.cacheControl = body.cache_control;
  // absent means stored, OpenAI's default; planning sets `store: false` when the gateway keeps nothing
  if (body.store === false) request.store = false;
  if (body.previous_response_id != null) request.previousResponseId = body.previous_response_id;
  return request;
}
