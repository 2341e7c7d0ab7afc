import { expect } from "bun:test";
import type { IRAssistantPart, IRFinishReason, IRStreamPart, IRUsage } from "../../../src/ir/types";

/** Asserts the block rules of src/ir/types.ts hold for a decoded stream. */
export function expectValidStream(parts: IRStreamPart[]): void {
  expect(parts[0]?.type).toBe("start");
  const last = parts.at(-1)?.type;
  expect(last === "finish" || last === "error").toBe(true);
  let open: number | undefined;
  let next = 0;
  for (const part of parts.slice(1, -1)) {
    if (part.type === "block-start") {
      expect(open).toBeUndefined();
      expect(part.index).toBe(next++);
      open = part.index;
    } else if (part.type === "block-end") {
      expect(part.index).toBe(open as number);
      open = undefined;
    } else if ("index" in part) {
      expect(part.index).toBe(open as number);
    } else {
      expect(part.type === "usage").toBe(true);
    }
  }
  expect(open).toBeUndefined();
}

export type Collected = { content: IRAssistantPart[]; finishReason?: IRFinishReason; usage?: IRUsage };

/** Folds stream parts into whole assistant parts, merging neighbouring text (Chat has no text block boundaries). */
export function collect(parts: IRStreamPart[]): Collected {
  const content: IRAssistantPart[] = [];
  const byIndex = new Map<number, IRAssistantPart>();
  const out: Collected = { content };
  for (const part of parts) {
    switch (part.type) {
      case "block-start": {
        const b = part.block;
        let made: IRAssistantPart;
        if (b.type === "text") made = { type: "text", text: "" };
        else if (b.type === "refusal") made = { type: "refusal", refusal: "" };
        else if (b.type === "tool_call") made = { type: "tool_call", id: b.id, name: b.name, arguments: "" };
        else {
          made = { type: "reasoning", text: "", origin: b.origin };
          if (b.id !== undefined) made.id = b.id;
          if (b.summary) made.summary = true;
          if (b.redacted) made.redacted = true;
          if (b.encrypted !== undefined) made.encrypted = b.encrypted;
        }
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
