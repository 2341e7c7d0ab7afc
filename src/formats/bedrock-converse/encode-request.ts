import type { IRRequest, IRTool, IRToolChoice } from "../../ir/types";
import { DEFAULT_MAX_TOKENS, thinkingBudget } from "../anthropic-messages/encode-request";
import { CACHE_POINT, calledTools, encodeSystem, encodeTurns, hasToolHistory } from "./encode-messages";

type Json = Record<string, unknown>;

/**
 * Fields only Anthropic's models take through `additionalModelRequestFields`: the model is named
 * by its id (`anthropic.…`, a regional profile `us.anthropic.…`) or, for an ARN, not at all.
 */
const isAnthropicModel = (modelId: string) => /(^|[.:/])anthropic\.|claude/i.test(modelId);

function toolSpec(tool: IRTool): Json[] {
  const spec: Json = { name: tool.name };
  if (tool.description) spec.description = tool.description;
  spec.inputSchema = { json: tool.parameters ?? { type: "object" } };
  return tool.cacheControl ? [{ toolSpec: spec }, CACHE_POINT] : [{ toolSpec: spec }];
}

function toolChoice(choice: IRToolChoice | undefined): Json | undefined {
  if (choice?.type === "required") return { any: {} };
  if (choice?.type === "tool") return { tool: { name: choice.name } };
  if (choice?.type === "auto") return { auto: {} };
  return undefined;
}

/**
 * Converse has no "none" tool choice, so tools are left out then; and it refuses toolUse and
 * toolResult blocks without a toolConfig, so a conversation that called tools keeps them
 * declared (those it no longer lists, with an open schema).
 */
function toolConfig(req: IRRequest): Json | undefined {
  const declared = req.tools ?? [];
  const history = hasToolHistory(req.messages);
  const none = req.toolChoice?.type === "none";
  if (declared.length === 0 || none) {
    if (!history) return undefined;
    const listed = new Set(declared.map((t) => t.name));
    const tools = [
      ...declared,
      ...calledTools(req.messages)
        .filter((name) => !listed.has(name))
        .map((name): IRTool => ({ type: "function", name })),
    ];
    return tools.length > 0 ? { tools: tools.flatMap(toolSpec) } : undefined;
  }
  const config: Json = { tools: declared.flatMap(toolSpec) };
  const choice = toolChoice(req.toolChoice);
  if (choice) config.toolChoice = choice;
  return config;
}

/** IR request -> Converse / ConverseStream body. The model is in the URL; gateway-only fields stay behind. */
export function encodeRequest(req: IRRequest, upstreamModel: string): Json {
  const body: Json = {};
  const system = encodeSystem(req.messages);
  if (system) body.system = system;
  body.messages = encodeTurns(req.messages);

  const budget = thinkingBudget(req);
  const inference: Json = {};
  let maxTokens = req.maxOutputTokens;
  // as on Anthropic's own API, the thinking budget must stay under the answer's whole allowance
  if (budget !== undefined && (maxTokens === undefined || maxTokens <= budget)) maxTokens = budget + (req.maxOutputTokens ?? DEFAULT_MAX_TOKENS);
  if (maxTokens !== undefined) inference.maxTokens = maxTokens;
  // Claude refuses a changed temperature or top_k while it thinks
  if (req.temperature !== undefined && budget === undefined) inference.temperature = req.temperature;
  if (req.topP !== undefined) inference.topP = req.topP;
  if (req.stop && req.stop.length > 0) inference.stopSequences = req.stop;
  if (Object.keys(inference).length > 0) body.inferenceConfig = inference;

  const tools = toolConfig(req);
  if (tools) body.toolConfig = tools;

  const additional: Json = {};
  if (budget !== undefined) additional.reasoning_config = { type: "enabled", budget_tokens: budget };
  const anthropic = isAnthropicModel(upstreamModel);
  if (anthropic && req.topK !== undefined && budget === undefined) additional.top_k = req.topK;
  if (anthropic && req.responseFormat?.type === "json_schema")
    additional.output_config = { format: { type: "json_schema", schema: req.responseFormat.schema } };
  if (anthropic && req.responseFormat?.type === "json_object")
    additional.output_config = { format: { type: "json_schema", schema: { type: "object", additionalProperties: true } } };
  if (Object.keys(additional).length > 0) body.additionalModelRequestFields = additional;
  // Claude says which stop sequence ended the answer only when asked for the field
  if (anthropic && req.stop && req.stop.length > 0) body.additionalModelResponseFieldPaths = ["/delta/stop_sequence"];
  return body;
}
