import type { IRRequest, IRResponseFormat, IRToolChoice } from "../../ir/types";
import { budgetFromEffort, MIN_THINKING_BUDGET } from "../reasoning-budget";
import { encodeSystem, encodeTurns } from "./encode-messages";

/** Anthropic requires max_tokens; this is the allowance when the client named none. */
export const DEFAULT_MAX_TOKENS = 4096;

/** Thinking budget for the request, or undefined when reasoning is off or not asked for. */
export function thinkingBudget(req: IRRequest): number | undefined {
  const r = req.reasoning;
  if (!r || r.enabled === false || r.effort === "none") return undefined;
  if (r.enabled !== true && r.effort === undefined && r.maxTokens === undefined) return undefined;
  const budget = r.maxTokens ?? budgetFromEffort(r.effort ?? "medium", req.maxOutputTokens);
  return Math.max(MIN_THINKING_BUDGET, budget);
}

function toolChoice(choice: IRToolChoice | undefined, parallel: boolean | undefined): Record<string, unknown> | undefined {
  const wire: Record<string, unknown> | undefined =
    choice?.type === "none"
      ? { type: "none" }
      : choice?.type === "required"
        ? { type: "any" }
        : choice?.type === "tool"
          ? { type: "tool", name: choice.name }
          : choice?.type === "auto" || parallel === false
            ? { type: "auto" }
            : undefined;
  if (wire && wire.type !== "none" && parallel === false) wire.disable_parallel_tool_use = true;
  return wire;
}

function outputFormat(format: IRResponseFormat | undefined): Record<string, unknown> | undefined {
  if (format?.type === "json_schema") return { type: "json_schema", schema: format.schema };
  if (format?.type === "json_object") return { type: "json_schema", schema: { type: "object", additionalProperties: true } };
  return undefined;
}

/** IR request -> Anthropic POST /messages body. Gateway-only fields (routing, plugins, trace...) stay behind. */
export function encodeRequest(req: IRRequest, upstreamModel: string): Record<string, unknown> {
  const body: Record<string, unknown> = { model: upstreamModel };
  const system = encodeSystem(req.messages);
  if (system) body.system = system;
  body.messages = encodeTurns(req.messages);

  let maxTokens = req.maxOutputTokens ?? DEFAULT_MAX_TOKENS;
  const budget = thinkingBudget(req);
  if (budget !== undefined) {
    // Anthropic needs budget_tokens < max_tokens; the budget comes on top of the answer's allowance.
    if (maxTokens <= budget) maxTokens = budget + (req.maxOutputTokens ?? DEFAULT_MAX_TOKENS);
    body.thinking = { type: "enabled", budget_tokens: budget };
  }
  body.max_tokens = maxTokens;

  // Anthropic refuses temperature and top_k changes while thinking is on.
  if (req.temperature !== undefined && budget === undefined) body.temperature = req.temperature;
  if (req.topP !== undefined) body.top_p = req.topP;
  if (req.topK !== undefined && budget === undefined) body.top_k = req.topK;
  if (req.stop && req.stop.length > 0) body.stop_sequences = req.stop;

  if (req.tools && req.tools.length > 0) {
    body.tools = req.tools.map((tool) => {
      const wire: Record<string, unknown> = { name: tool.name };
      if (tool.description !== undefined) wire.description = tool.description;
      wire.input_schema = tool.parameters ?? { type: "object" };
      if (tool.strict) wire.strict = true;
      if (tool.eagerInputStreaming !== undefined) wire.eager_input_streaming = tool.eagerInputStreaming;
      if (tool.cacheControl) wire.cache_control = { ...tool.cacheControl };
      return wire;
    });
    const choice = toolChoice(req.toolChoice, req.parallelToolCalls);
    if (choice) body.tool_choice = choice;
  }

  const format = outputFormat(req.responseFormat);
  if (format) body.output_config = { format };
  if (req.user) body.metadata = { user_id: req.user };
  if (req.cacheControl) body.cache_control = { ...req.cacheControl };
  body.stream = req.stream;
  return body;
}
