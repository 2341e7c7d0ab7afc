import { UpstreamFormatError } from "../../ir/codec";
import { emptyUsage, type IRAssistantPart, type IRResult } from "../../ir/types";
import { fromChatFinishReason } from "./finish-reason";
import { decodeReasoningDetails } from "./reasoning-details";
import { decodeChatUsage } from "./usage";
import type { WireMessage, WireResult } from "./wire";

/** Upstream non-streaming Chat completion → IR result. */

function decodeMessageContent(message: WireMessage): IRAssistantPart[] {
  const parts: IRAssistantPart[] = [];
  if (Array.isArray(message.reasoning_details) && message.reasoning_details.length > 0) {
    parts.push(...decodeReasoningDetails(message.reasoning_details));
  } else {
    const reasoning = message.reasoning || message.reasoning_content;
    if (typeof reasoning === "string" && reasoning !== "") parts.push({ type: "reasoning", text: reasoning, origin: "unknown" });
  }
  if (typeof message.content === "string") {
    if (message.content !== "") parts.push({ type: "text", text: message.content });
  } else if (Array.isArray(message.content)) {
    for (const part of message.content) {
      if (part?.type === "text" && typeof part.text === "string") parts.push({ type: "text", text: part.text });
    }
  }
  if (typeof message.refusal === "string" && message.refusal !== "") parts.push({ type: "refusal", refusal: message.refusal });
  for (const call of message.tool_calls ?? []) {
    if (!call?.function) continue;
    parts.push({
      type: "tool_call",
      id: call.id ?? `call_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`,
      name: call.function.name ?? "",
      arguments: call.function.arguments ?? "",
    });
  }
  return parts;
}

export function decodeChatResult(body: unknown): IRResult {
  const result = body as WireResult | null;
  if (!result || typeof result !== "object" || !Array.isArray(result.choices)) {
    throw new UpstreamFormatError("Chat completion has no choices");
  }
  const choice = result.choices.find((c) => (c?.index ?? 0) === 0) ?? result.choices[0];
  const content = choice?.message ? decodeMessageContent(choice.message) : [];
  const hasToolCalls = content.some((part) => part.type === "tool_call");
  return {
    id: typeof result.id === "string" ? result.id : "",
    model: typeof result.model === "string" ? result.model : "",
    content,
    finishReason: fromChatFinishReason(choice?.finish_reason, hasToolCalls),
    nativeFinishReason: choice?.native_finish_reason ?? choice?.finish_reason ?? null,
    usage: { ...emptyUsage(), ...decodeChatUsage(result.usage) },
  };
}
