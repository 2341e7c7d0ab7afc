import type { CacheControl, IRReasoningConfig, IRRequest, IRResponseFormat, IRTool, IRToolChoice, ReasoningEffort } from "../../ir/types";
import { assignDefined } from "../defined-fields";
import { sessionIdHeader } from "../session-header";
import { decodeMessage } from "./decode-messages";
import type { ChatRequestBody } from "./schema";

/** Inbound `POST /chat/completions` body (already schema-validated) → IR request. */

type Present<T> = Exclude<T, null | undefined>;

const given = <T>(value: T): Present<T> | undefined => (value === null || value === undefined ? undefined : (value as Present<T>));

function decodeTools(tools: ChatRequestBody["tools"]): IRTool[] | undefined {
  if (!tools) return undefined;
  const decoded: IRTool[] = [];
  for (const tool of tools) {
    // OpenRouter server tools (web search etc.) have no IR form; only functions travel upstream.
    if (tool.type !== "function" || !("function" in tool)) continue;
    const fn = tool.function as { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean | null };
    const ir: IRTool = { type: "function", name: fn.name };
    if (fn.description !== undefined) ir.description = fn.description;
    if (fn.parameters !== undefined) ir.parameters = fn.parameters;
    if (fn.strict !== undefined && fn.strict !== null) ir.strict = fn.strict;
    if ("cache_control" in tool && tool.cache_control) ir.cacheControl = tool.cache_control as CacheControl;
    decoded.push(ir);
  }
  return decoded;
}

function decodeToolChoice(choice: ChatRequestBody["tool_choice"]): IRToolChoice | undefined {
  if (choice === undefined) return undefined;
  if (typeof choice === "string") return { type: choice };
  if (choice.type === "function" && "function" in choice) return { type: "tool", name: (choice.function as { name: string }).name };
  return undefined;
}

function decodeResponseFormat(format: ChatRequestBody["response_format"]): IRResponseFormat | undefined {
  if (!format) return undefined;
  if (format.type === "text" || format.type === "json_object") return { type: format.type };
  if (format.type !== "json_schema") return undefined; // grammar / python: no upstream speaks them through the IR
  const spec = format.json_schema;
  const decoded: IRResponseFormat = { type: "json_schema", name: spec.name, schema: spec.schema ?? {} };
  if (spec.description !== undefined) decoded.description = spec.description;
  if (spec.strict !== undefined && spec.strict !== null) decoded.strict = spec.strict;
  return decoded;
}

function decodeReasoning(body: ChatRequestBody): IRReasoningConfig | undefined {
  const config = body.reasoning;
  const effort = (given(config?.effort) ?? given(body.reasoning_effort)) as ReasoningEffort | undefined;
  const decoded: IRReasoningConfig = {};
  if (effort === "none") decoded.enabled = false;
  else if (effort !== undefined) decoded.effort = effort;
  const maxTokens = given(config?.max_tokens);
  if (maxTokens !== undefined) decoded.maxTokens = maxTokens;
  const summary = given(config?.summary);
  if (summary !== undefined) decoded.summary = summary;
  const enabled = given(config?.enabled);
  if (enabled === false) decoded.enabled = false;
  else if (enabled === true && decoded.enabled === undefined) decoded.enabled = true;
  return Object.keys(decoded).length > 0 ? decoded : undefined;
}

const PLAIN_PARAMETERS = [
  "temperature",
  "top_p",
  "top_k",
  "frequency_penalty",
  "presence_penalty",
  "repetition_penalty",
  "min_p",
  "top_a",
  "seed",
  "max_tokens",
  "stop",
  "logit_bias",
  "logprobs",
  "top_logprobs",
  "tools",
  "tool_choice",
  "parallel_tool_calls",
  "response_format",
  "reasoning",
] as const;

/** Parameter names as OpenRouter's `supported_parameters` spells them, for require_parameters. */
function sentParameters(body: ChatRequestBody): string[] {
  const has = (key: keyof ChatRequestBody) => body[key] !== undefined && body[key] !== null;
  // in this order; the aliases count as the name they stand for, once
  const names: string[] = [];
  for (const key of PLAIN_PARAMETERS) {
    if (has(key) || (key === "max_tokens" && has("max_completion_tokens")) || (key === "reasoning" && has("reasoning_effort"))) names.push(key);
  }
  if (body.response_format?.type === "json_schema") names.push("structured_outputs");
  return names;
}

export function decodeChatRequest(body: ChatRequestBody, headers?: Headers): IRRequest {
  const stop = given(body.stop);
  const request: IRRequest = {
    messages: body.messages.map(decodeMessage),
    stream: body.stream ?? false,
    sentParameters: sentParameters(body),
  };
  const optional: Partial<IRRequest> = {
    model: body.model,
    models: body.models,
    maxOutputTokens: given(body.max_completion_tokens) ?? given(body.max_tokens),
    temperature: given(body.temperature),
    topP: given(body.top_p),
    topK: given(body.top_k),
    frequencyPenalty: given(body.frequency_penalty),
    presencePenalty: given(body.presence_penalty),
    repetitionPenalty: given(body.repetition_penalty),
    minP: given(body.min_p),
    topA: given(body.top_a),
    seed: given(body.seed),
    stop: stop === undefined ? undefined : typeof stop === "string" ? [stop] : stop,
    logitBias: given(body.logit_bias),
    logprobs: given(body.logprobs),
    topLogprobs: given(body.top_logprobs),
    tools: decodeTools(body.tools),
    toolChoice: decodeToolChoice(body.tool_choice),
    parallelToolCalls: given(body.parallel_tool_calls),
    responseFormat: decodeResponseFormat(body.response_format),
    reasoning: decodeReasoning(body),
    serviceTier: given(body.service_tier),
    user: body.user,
    sessionId: body.session_id ?? sessionIdHeader(headers),
    metadata: body.metadata,
    provider: given(body.provider) as Record<string, unknown> | undefined,
    trace: body.trace,
    plugins: body.plugins,
    preset: body.preset,
    promptCacheKey: given(body.prompt_cache_key),
    cacheControl: body.cache_control as CacheControl | undefined,
  };
  return assignDefined(request, optional);
}
