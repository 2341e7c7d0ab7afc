import type { EncodeContext } from "../../ir/codec";
import type { Settlement } from "../../ir/settlement";
import type { IRAssistantPart, IRReasoningPart, IRResult } from "../../ir/types";
import { toChatFinishReason } from "./finish-reason";
import { encodeReasoningDetails } from "./reasoning-details";
import { encodeChatUsage } from "./usage";

/** IR result → ChatResult as the client sees it (contract §3.10). */

const joined = (texts: string[]): string | null => (texts.length > 0 ? texts.join("") : null);

export function encodeAssistantAnswer(content: readonly IRAssistantPart[]): Record<string, unknown> {
  const texts: string[] = [];
  const refusals: string[] = [];
  const reasoning: IRReasoningPart[] = [];
  const toolCalls: Array<Record<string, unknown>> = [];
  for (const part of content) {
    if (part.type === "text") texts.push(part.text);
    else if (part.type === "refusal") refusals.push(part.refusal);
    else if (part.type === "reasoning") reasoning.push(part);
    else toolCalls.push({ id: part.id, type: "function", function: { name: part.name, arguments: part.arguments } });
  }
  const message: Record<string, unknown> = {
    role: "assistant",
    content: joined(texts),
    refusal: joined(refusals),
    reasoning: joined(reasoning.filter((part) => !part.redacted && part.text !== "").map((part) => part.text)),
  };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (reasoning.length > 0) message.reasoning_details = encodeReasoningDetails(reasoning);
  return message;
}

export function encodeChatResult(result: IRResult, ctx: EncodeContext, settlement: Settlement): Record<string, unknown> {
  const body: Record<string, unknown> = {
    id: ctx.generationId,
    object: "chat.completion",
    created: ctx.created,
    model: ctx.model,
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
  };
  if (settlement.serviceMetadata) body.service_metadata = settlement.serviceMetadata;
  return body;
}
