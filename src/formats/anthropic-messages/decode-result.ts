import { UpstreamFormatError } from "../../ir/codec";
import type { IRAssistantPart, IRResult } from "../../ir/types";
import { decodeStopReason } from "./finish-reason";
import { decodeUsage } from "./usage";
import type { WireBlock, WireMessage } from "./wire";

/** Server-tool blocks (web search results, code execution...) have no IR form and are skipped. */
function decodeBlock(block: WireBlock): IRAssistantPart | undefined {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text ?? "" };
    case "thinking": {
      const part: IRAssistantPart = { type: "reasoning", text: block.thinking ?? "", origin: "anthropic-messages" };
      if (block.signature) part.signature = block.signature;
      return part;
    }
    case "redacted_thinking":
      return { type: "reasoning", text: "", redacted: true, encrypted: block.data ?? "", origin: "anthropic-messages" };
    case "tool_use":
      return { type: "tool_call", id: block.id ?? "", name: block.name ?? "", arguments: JSON.stringify(block.input ?? {}) };
    default:
      return undefined;
  }
}

/** Anthropic MessagesResult JSON -> IR result. */
export function decodeResult(body: unknown): IRResult {
  if (typeof body !== "object" || body === null) throw new UpstreamFormatError("Anthropic response is not a JSON object");
  const message = body as WireMessage;
  if (!Array.isArray(message.content)) throw new UpstreamFormatError("Anthropic response has no content array");
  const result: IRResult = {
    id: message.id ?? "",
    model: message.model ?? "",
    content: message.content.flatMap((b) => decodeBlock(b) ?? []),
    finishReason: decodeStopReason(message.stop_reason),
    stopSequence: message.stop_sequence ?? null,
    nativeFinishReason: message.stop_reason ?? null,
    usage: decodeUsage(message.usage ?? {}),
  };
  return result;
}
