import type { EncodeContext } from "../../ir/codec";
import type { Settlement } from "../../ir/settlement";
import type { IRAssistantPart, IRReasoningPart, IRResult } from "../../ir/types";
import { isJsonObject, type JsonObject as Json } from "../json-object";
import { withServiceMetadata } from "../service-metadata";
import { reasoningText } from "./encode-result";
import { toChatFinishReason } from "./finish-reason";
import { encodeReasoningDetails } from "./reasoning-details";
import { encodeChatUsage } from "./usage";

/**
 * Same format in and out (a Chat client, an openai-chat upstream): the upstream's answer reaches
 * the client as it came, fields the gateway does not know included. The gateway changes its id
 * and model, the usage (what it charged), the finish reasons (OpenRouter's normalised one beside
 * the upstream's own), writes a `system_fingerprint` the upstream left out as null, adds
 * OpenRouter's `reasoning` / `reasoning_details` when the upstream sent reasoning in another
 * spelling, and fills in a tool call id the upstream left out, so the client can answer the call.
 */

/** The choice the gateway decodes and bills (index 0); other choices pass as they came. */
export const isFirstChoice = (choice: unknown): boolean => ((isJsonObject(choice) ? choice.index : undefined) ?? 0) === 0;

/** The upstream's own reasoning_details are lossless already: only another spelling gets them added. */
export const hasReasoningDetails = (fields: Json): boolean => Array.isArray(fields.reasoning_details) && fields.reasoning_details.length > 0;

function withReasoning(message: Json, content: readonly IRAssistantPart[]): Json {
  const reasoning = content.filter((part): part is IRReasoningPart => part.type === "reasoning");
  if (reasoning.length === 0 || hasReasoningDetails(message)) return message;
  return { ...message, reasoning: reasoningText(reasoning), reasoning_details: encodeReasoningDetails(reasoning) };
}

/** Tool calls keep the upstream's ids; one it left out gets the id the decoder gave it. */
function withToolCallIds(message: Json, content: readonly IRAssistantPart[]): Json {
  const calls = message.tool_calls;
  if (!Array.isArray(calls) || calls.every((call) => !isJsonObject(call) || (typeof call.id === "string" && call.id !== ""))) return message;
  const ids = content.flatMap((part) => (part.type === "tool_call" ? [part.id] : []));
  let next = 0;
  // the decoder skips entries without a function, so only those take an id in turn
  const filled = calls.map((call) => {
    if (!isJsonObject(call) || !isJsonObject(call.function)) return call;
    const id = ids[next++];
    return typeof call.id === "string" && call.id !== "" ? call : { ...call, id };
  });
  return { ...message, tool_calls: filled };
}

function rewriteChoice(choice: unknown, result: IRResult): unknown {
  if (!isJsonObject(choice)) return choice;
  const message = isJsonObject(choice.message) ? withToolCallIds(withReasoning(choice.message, result.content), result.content) : choice.message;
  return { ...choice, message, finish_reason: toChatFinishReason(result.finishReason), native_finish_reason: result.nativeFinishReason ?? null };
}

export function rewriteChatResult(raw: Json, result: IRResult, ctx: EncodeContext, settlement: Settlement): Json {
  const choices = Array.isArray(raw.choices) ? raw.choices : [];
  const first = Math.max(0, choices.findIndex(isFirstChoice));
  return {
    ...raw,
    id: ctx.generationId,
    model: ctx.model,
    // OpenRouter's field names the provider that served this gateway's request
    ...(ctx.provider === undefined ? {} : { provider: ctx.provider }),
    // OpenAI may leave it out, OpenRouter's ChatResult requires it (a string or null)
    system_fingerprint: typeof raw.system_fingerprint === "string" ? raw.system_fingerprint : null,
    choices: choices.map((choice, i) => (i === first ? rewriteChoice(choice, result) : choice)),
    usage: encodeChatUsage(result.usage, settlement),
    ...withServiceMetadata(settlement),
  };
}
