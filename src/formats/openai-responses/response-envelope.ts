import type { EncodeContext } from "../../ir/codec";
import type { IRRequest } from "../../ir/types";
import type { ServiceMetadata } from "../service-metadata";
import { echoTools, encodeResponseFormat, encodeToolChoice } from "./encode-tools";
import { joinOutputText, type OutputItem } from "./output-items";
import type { ResponsesResult, ResponsesUsage } from "./schema";

/** OpenRouter's OpenResponsesResult around an output list, echoing the request like OpenAI does. */

export type ResponseStatus = "in_progress" | "completed" | "incomplete" | "failed";

export type EnvelopeState = {
  status: ResponseStatus;
  output: OutputItem[];
  /** the encoded usage, on a terminal response the gateway settled */
  usage?: ResponsesUsage;
  incompleteReason?: "max_output_tokens" | "content_filter";
  error?: { code: string; message: string; errorType: string };
  /** on a terminal response, when the client asked for it */
  serviceMetadata?: ServiceMetadata;
};

/** The instructions exactly as the client sent them (a system message in `input` is not one). */
function instructionsOf(request: IRRequest): string | null {
  return request.instructions ?? null;
}

function reasoningOf(request: IRRequest): ResponsesResult["reasoning"] {
  if (!request.reasoning) return null;
  return { effort: request.reasoning.effort ?? null, summary: request.reasoning.summary ?? null };
}

export function responseEnvelope(ctx: EncodeContext, state: EnvelopeState): ResponsesResult {
  const request = ctx.request;
  return {
    id: ctx.generationId,
    object: "response",
    created_at: ctx.created,
    status: state.status,
    background: false,
    completed_at: state.status === "completed" || state.status === "incomplete" ? Math.floor(Date.now() / 1000) : null,
    error: state.error ? { code: state.error.code, message: state.error.message } : null,
    incomplete_details: state.incompleteReason ? { reason: state.incompleteReason } : null,
    instructions: instructionsOf(request),
    max_output_tokens: request.maxOutputTokens ?? null,
    max_tool_calls: null,
    model: ctx.model,
    output: state.output,
    parallel_tool_calls: request.parallelToolCalls ?? true,
    previous_response_id: request.previousResponseId ?? null,
    prompt_cache_key: request.promptCacheKey ?? null,
    reasoning: reasoningOf(request),
    safety_identifier: null,
    service_tier: request.serviceTier ?? "auto",
    store: request.store !== false,
    temperature: request.temperature ?? null,
    text: { format: request.responseFormat ? encodeResponseFormat(request.responseFormat) : { type: "text" } },
    tool_choice: request.toolChoice ? encodeToolChoice(request.toolChoice) : "auto",
    tools: request.tools ? echoTools(request.tools) : [],
    // a number: @openrouter/sdk before 0.12.0 refuses null here
    top_logprobs: request.topLogprobs ?? 0,
    top_p: request.topP ?? null,
    presence_penalty: request.presencePenalty ?? null,
    frequency_penalty: request.frequencyPenalty ?? null,
    truncation: "disabled",
    usage: state.usage ?? null,
    user: request.user ?? null,
    metadata: request.metadata ?? null,
    output_text: joinOutputText(state.output),
    ...(state.error ? { error_type: state.error.errorType } : {}),
    ...(state.serviceMetadata ? { service_metadata: state.serviceMetadata } : {}),
  };
}
