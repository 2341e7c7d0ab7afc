import { UpstreamFormatError } from "../../ir/codec";
import type { IRAssistantPart, IRResult } from "../../ir/types";
import { isJsonObject } from "../json-object";
import { decodeStopReason } from "./finish-reason";
import { decodeUsage } from "./usage";
import type { WireContentBlock } from "./wire";

/** Blocks the IR has no form for (citations, guard content, images a model drew) are skipped. */
function decodeBlock(block: WireContentBlock): IRAssistantPart | undefined {
  if (typeof block.text === "string") return { type: "text", text: block.text };
  if (block.toolUse) {
    const { toolUseId, name, input } = block.toolUse;
    return { type: "tool_call", id: toolUseId ?? "", name: name ?? "", arguments: JSON.stringify(input ?? {}) };
  }
  const reasoning = block.reasoningContent;
  if (reasoning?.redactedContent !== undefined) return { type: "reasoning", text: "", redacted: true, encrypted: reasoning.redactedContent, origin: "bedrock" };
  if (reasoning?.reasoningText) {
    const part: IRAssistantPart = { type: "reasoning", text: reasoning.reasoningText.text ?? "", origin: "bedrock" };
    if (reasoning.reasoningText.signature) part.signature = reasoning.reasoningText.signature;
    return part;
  }
  return undefined;
}

/** The stop sequence Claude names under the response field path the request asked for (`/delta/stop_sequence`). */
export function stopSequenceOf(fields: unknown): string | null {
  const delta = isJsonObject(fields) ? fields.delta : undefined;
  const value = isJsonObject(delta) ? delta.stop_sequence : undefined;
  return typeof value === "string" ? value : null;
}

/** Converse JSON -> IR result. The answer names neither itself nor its model: `id` and `model` stay empty. */
export function decodeResult(body: unknown): IRResult {
  if (!isJsonObject(body)) throw new UpstreamFormatError("Bedrock response is not a JSON object");
  const message = (body.output as { message?: { content?: unknown } } | undefined)?.message;
  if (!message || !Array.isArray(message.content)) throw new UpstreamFormatError("Bedrock response has no output.message.content array");
  const stopReason = typeof body.stopReason === "string" ? body.stopReason : null;
  return {
    id: "",
    model: "",
    content: (message.content as WireContentBlock[]).flatMap((b) => (isJsonObject(b) ? (decodeBlock(b) ?? []) : [])),
    finishReason: decodeStopReason(stopReason),
    stopSequence: stopSequenceOf(body.additionalModelResponseFields),
    nativeFinishReason: stopReason,
    usage: decodeUsage(isJsonObject(body.usage) ? body.usage : undefined),
  };
}
