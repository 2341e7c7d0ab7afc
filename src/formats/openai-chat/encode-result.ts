import type { EncodeContext } from "../../ir/codec";
import type { Settlement } from "../../ir/settlement";
import type { IRAssistantPart, IRReasoningPart, IRResult } from "../../ir/types";
import { withServiceMetadata } from "../service-metadata";
import { toChatFinishReason } from "./finish-reason";
import { encodeReasoningDetails } from "./reasoning-details";
import type { ChatAnswer, ChatResult } from "./schema";
import { encodeChatUsage } from "./usage";

/** IR result → OpenRouter's ChatResult as the client sees it. */

const joined = (texts: string[]): string | null => (texts.length > 0 ? texts.join("") : null);

type ToolCall = NonNullable<ChatAnswer["tool_calls"]>[number];

/** The message's `reasoning`: the readable reasoning text, null when there is none. */
export const reasoningText = (reasoning: readonly IRReasoningPart[]): string | null =>
  joined(reasoning.filter((part) => !part.redacted && part.text !== "").map((part) => part.text));

export function encodeAssistantAnswer(content: readonly IRAssistantPart[]): ChatAnswer {
  const texts: string[] = [];
  const refusals: string[] = [];
  const reasoning: IRReasoningPart[] = [];
  const toolCalls: ToolCall[] = [];
  for (const part of content) {
    if (part.type === "text") texts.push(part.text);
    else if (part.type === "refusal") refusals.push(part.refusal);
    else if (part.type === "reasoning") reasoning.push(part);
    else toolCalls.push({ id: part.id, type: "function", function: { name: part.name, arguments: part.arguments } });
  }
  return {
    role: "assistant",
    content: joined(texts),
    refusal: joined(refusals),
    reasoning: reasoningText(reasoning),
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    ...(reasoning.length > 0 ? { reasoning_details: encodeReasoningDetails(reasoning) } : {}),
  };
}

export function encodeChatResult(result: IRResult, ctx: EncodeContext, settlement: Settlement): ChatResult {
  return {
    id: ctx.generationId,
    object: "chat.completion",
    created: ctx.created,
    model: ctx.model,
    ...(ctx.provider === undefined ? {} : { provider: ctx.provider }),
    system_fingerprint: null,
    choices: [
      {
        index: 0,
        message: encodeAssistantAnswer(result.content),
        finish_reason: toChatFinishReason(result.finishReason),
        native_finish_reason: result.nativeFinishReason ?? null,
        logprobs: null,
      },
    ],
    usage: encodeChatUsage(result.usage, settlement),
    ...withServiceMetadata(settlement),
  };
}
