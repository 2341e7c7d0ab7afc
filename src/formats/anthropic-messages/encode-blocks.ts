import type { IRAssistantPart, IRReasoningPart } from "../../ir/types";
import { packForeignSignature } from "../reasoning-signature";
import type { MessagesAnswerBlock } from "./schema";

/**
 * IR assistant parts -> Anthropic response content blocks. Reasoning from another
 * kind of upstream becomes a thinking block whose signature packs its origin, id
 * and payload, so the client hands it back intact on the next turn.
 */
export function reasoningBlock(part: IRReasoningPart): MessagesAnswerBlock {
  if (part.origin === "anthropic-messages") {
    if (part.redacted) return { type: "redacted_thinking", data: part.encrypted ?? "" };
    return { type: "thinking", thinking: part.text, signature: part.signature ?? "" };
  }
  return { type: "thinking", thinking: part.text, signature: packForeignSignature(part) };
}

/** Tool input must be an object for Anthropic clients; arguments that do not parse become {}. */
export function parseToolInput(args: string): unknown {
  try {
    const input: unknown = JSON.parse(args);
    return typeof input === "object" && input !== null && !Array.isArray(input) ? input : {};
  } catch {
    return {};
  }
}

export function encodeContentBlock(part: IRAssistantPart): MessagesAnswerBlock {
  switch (part.type) {
    case "reasoning":
      return reasoningBlock(part);
    case "text":
      return { type: "text", text: part.text, citations: null };
    case "refusal":
      return { type: "text", text: part.refusal, citations: null };
    case "tool_call":
      return { type: "tool_use", id: part.id, name: part.name, input: parseToolInput(part.arguments) };
  }
}
