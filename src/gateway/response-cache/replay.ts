import type { IRFinishPart, IRStreamPart } from "../../ir/types";
import type { CachedAnswer } from "./cached-answer";

/**
 * A kept answer as the stream parts an upstream decoder would have produced for it, in the IR's
 * stream grammar (start, one block per part with its deltas, finish), so a streamed hit goes
 * through the client format's own stream encoder and has the events a live answer has. The
 * start carries the whole usage: formats that state the prompt's tokens first (Anthropic's
 * message_start) state the kept figure.
 */
export function replayParts(answer: CachedAnswer): { parts: Exclude<IRStreamPart, IRFinishPart>[]; finish: IRFinishPart } {
  const { result } = answer;
  const parts: Exclude<IRStreamPart, IRFinishPart>[] = [{ type: "start", id: result.id, model: answer.model, usage: result.usage }];
  result.content.forEach((part, index) => {
    switch (part.type) {
      case "text":
        parts.push({ type: "block-start", index, block: { type: "text" } }, { type: "text-delta", index, text: part.text });
        break;
      case "refusal":
        parts.push({ type: "block-start", index, block: { type: "refusal" } }, { type: "refusal-delta", index, text: part.refusal });
        break;
      case "tool_call":
        parts.push({ type: "block-start", index, block: { type: "tool_call", id: part.id, name: part.name } });
        if (part.arguments !== "") parts.push({ type: "tool-args-delta", index, delta: part.arguments });
        break;
      case "reasoning": {
        const block: Extract<IRStreamPart, { type: "block-start" }>["block"] = { type: "reasoning", origin: part.origin };
        if (part.id !== undefined) block.id = part.id;
        if (part.summary) block.summary = true;
        if (part.redacted) block.redacted = true;
        if (part.redacted && part.encrypted !== undefined) block.encrypted = part.encrypted;
        parts.push({ type: "block-start", index, block });
        if (part.text !== "") parts.push({ type: "reasoning-delta", index, text: part.text });
        if (part.signature !== undefined) parts.push({ type: "reasoning-signature", index, signature: part.signature });
        if (!part.redacted && part.encrypted !== undefined) parts.push({ type: "reasoning-encrypted", index, data: part.encrypted });
        break;
      }
    }
    parts.push({ type: "block-end", index });
  });
  const finish: IRFinishPart = { type: "finish", finishReason: result.finishReason, usage: result.usage };
  if (result.stopSequence != null) finish.stopSequence = result.stopSequence;
  if (result.nativeFinishReason != null) finish.nativeFinishReason = result.nativeFinishReason;
  return { parts, finish };
}
