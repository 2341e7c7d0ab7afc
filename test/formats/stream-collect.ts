import type { IRAssistantPart, IRFinishReason, IRStreamPart, IRUsage } from "../../src/ir/types";

export type Collected = { content: IRAssistantPart[]; finishReason?: IRFinishReason; usage?: IRUsage };

/** Folds stream parts into whole assistant parts, merging neighbouring text (Chat has no text block boundaries). */
export function collect(parts: IRStreamPart[]): Collected {
  const content: IRAssistantPart[] = [];
  const byIndex = new Map<number, IRAssistantPart>();
  const out: Collected = { content };
  for (const part of parts) {
    switch (part.type) {
      case "block-start": {
        const made = emptyPart(part.block);
        byIndex.set(part.index, made);
        content.push(made);
        break;
      }
      case "text-delta":
        (byIndex.get(part.index) as { text: string }).text += part.text;
        break;
      case "refusal-delta":
        (byIndex.get(part.index) as { refusal: string }).refusal += part.text;
        break;
      case "reasoning-delta":
        (byIndex.get(part.index) as { text: string }).text += part.text;
        break;
      case "reasoning-signature":
        (byIndex.get(part.index) as { signature?: string }).signature = part.signature;
        break;
      case "reasoning-encrypted":
        (byIndex.get(part.index) as { encrypted?: string }).encrypted = part.data;
        break;
      case "tool-args-delta":
        (byIndex.get(part.index) as { arguments: string }).arguments += part.delta;
        break;
      case "finish":
        out.finishReason = part.finishReason;
        out.usage = part.usage;
        break;
      default:
        break;
    }
  }
  out.content = mergeNeighbours(content);
  return out;
}

function emptyPart(b: Extract<IRStreamPart, { type: "block-start" }>["block"]): IRAssistantPart {
  if (b.type === "text") return { type: "text", text: "" };
  if (b.type === "refusal") return { type: "refusal", refusal: "" };
  if (b.type === "tool_call") return { type: "tool_call", id: b.id, name: b.name, arguments: "" };
  const made: IRAssistantPart = { type: "reasoning", text: "", origin: b.origin };
  if (b.id !== undefined) made.id = b.id;
  if (b.summary) made.summary = true;
  if (b.redacted) made.redacted = true;
  if (b.encrypted !== undefined) made.encrypted = b.encrypted;
  return made;
}

export function mergeNeighbours(parts: IRAssistantPart[]): IRAssistantPart[] {
  const merged: IRAssistantPart[] = [];
  for (const part of parts) {
    if (part.type === "text" && part.text === "") continue;
    if (part.type === "refusal" && part.refusal === "") continue;
    const prev = merged.at(-1);
    if (prev?.type === "text" && part.type === "text") merged[merged.length - 1] = { type: "text", text: prev.text + part.text };
    else if (prev?.type === "refusal" && part.type === "refusal") merged[merged.length - 1] = { type: "refusal", refusal: prev.refusal + part.refusal };
    else merged.push({ ...part });
  }
  return merged;
}
