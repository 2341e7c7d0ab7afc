import type { CacheControl, IRAssistantPart, IRMessage, IRTextPart, IRToolResultContent, IRUserPart } from "../../ir/types";
import { parseToolInput } from "../anthropic-messages/encode-blocks";
import { documentBlock, imageBlock } from "./media";

/** IR messages -> Converse `system` and `messages` (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Message.html). */

type Block = Record<string, unknown>;
type Turn = { role: "user" | "assistant"; content: Block[] };

/** Bedrock's prompt caching marks where a cached prefix ends with a cachePoint block after it. */
export const CACHE_POINT: Block = { cachePoint: { type: "default" } };

const withCachePoint = (block: Block | undefined, cacheControl: CacheControl | undefined): Block[] =>
  block === undefined ? [] : cacheControl ? [block, CACHE_POINT] : [block];

/** Converse refuses a blank text block. */
const textBlocks = (part: IRTextPart): Block[] => (part.text.trim() === "" ? [] : withCachePoint({ text: part.text }, part.cacheControl));

function userBlocks(part: IRUserPart): Block[] {
  if (part.type === "text") return textBlocks(part);
  if (part.type === "image") return withCachePoint(imageBlock(part), part.cacheControl);
  return withCachePoint(documentBlock(part), part.cacheControl);
}

/**
 * Reasoning goes back only to Bedrock, and only with what its model needs to check it: the
 * signature, or the redacted bytes (a payload without a signature: clients that carry it packed
 * hand back no `redacted` flag).
 */
function assistantBlocks(part: IRAssistantPart): Block[] {
  switch (part.type) {
    case "text":
      return textBlocks(part);
    case "refusal":
      return part.refusal.trim() === "" ? [] : [{ text: part.refusal }];
    case "tool_call":
      return [{ toolUse: { toolUseId: part.id, name: part.name, input: parseToolInput(part.arguments) } }];
    case "reasoning":
      if (part.origin !== "bedrock") return [];
      if (part.redacted || (part.encrypted !== undefined && part.signature === undefined))
        return part.encrypted ? [{ reasoningContent: { redactedContent: part.encrypted } }] : [];
      return part.signature ? [{ reasoningContent: { reasoningText: { text: part.text, signature: part.signature } } }] : [];
  }
}

function toolResultContent(content: IRToolResultContent): Block[] {
  if (typeof content === "string") return content === "" ? [] : [{ text: content }];
  return content.flatMap((p): Block[] => (p.type === "text" ? (p.text === "" ? [] : [{ text: p.text }]) : withCachePoint(imageBlock(p), undefined)));
}

function turnOf(message: Exclude<IRMessage, { role: "system" }>): Turn {
  switch (message.role) {
    case "user":
      return { role: "user", content: message.content.flatMap(userBlocks) };
    case "assistant":
      return { role: "assistant", content: message.content.flatMap(assistantBlocks) };
    case "tool": {
      const result: Block = { toolUseId: message.toolCallId, content: toolResultContent(message.content) };
      if (message.isError) result.status = "error";
      return { role: "user", content: [{ toolResult: result }] };
    }
  }
}

export function encodeSystem(messages: IRMessage[]): Block[] | undefined {
  const blocks = messages.flatMap((m) => (m.role === "system" ? m.content.flatMap(textBlocks) : []));
  return blocks.length > 0 ? blocks : undefined;
}

/**
 * Converse wants turns that alternate, each with content: tool results join the user turn, and
 * neighbouring turns of one role are merged once empty ones are gone.
 */
export function encodeTurns(messages: IRMessage[]): Turn[] {
  const turns: Turn[] = [];
  for (const message of messages) {
    if (message.role === "system") continue;
    const turn = turnOf(message);
    if (turn.content.length === 0) continue;
    const last = turns.at(-1);
    if (last && last.role === turn.role) last.content.push(...turn.content);
    else turns.push(turn);
  }
  return turns;
}

/** The names of the tools a conversation called, in order of first call. */
export function calledTools(messages: IRMessage[]): string[] {
  const names = new Set<string>();
  for (const m of messages) if (m.role === "assistant") for (const p of m.content) if (p.type === "tool_call") names.add(p.name);
  return [...names];
}

export const hasToolHistory = (messages: IRMessage[]): boolean =>
  messages.some((m) => m.role === "tool" || (m.role === "assistant" && m.content.some((p) => p.type === "tool_call")));
