import type { CacheControl, IRAssistantPart, IRFilePart, IRImagePart, IRMessage, IRTextPart, IRToolResultContent, IRUserPart } from "../../ir/types";
import { parseDataUrl } from "../data-url";
import { parseToolInput } from "./encode-blocks";

/** IR messages -> Anthropic `system` and `messages` for an upstream request. */

type Block = Record<string, unknown>;
type Turn = { role: "user" | "assistant"; content: Block[] };

const present = (block: Block | undefined): block is Block => block !== undefined;

const withCache = (block: Block, cacheControl: CacheControl | undefined): Block => (cacheControl ? { ...block, cache_control: { ...cacheControl } } : block);

const textBlock = (part: IRTextPart): Block => withCache({ type: "text", text: part.text }, part.cacheControl);

/** Anthropic's url source refuses data: URLs, so those travel as base64. */
function imageBlock(part: IRImagePart): Block {
  const { source } = part;
  if (source.kind === "base64") {
    return withCache({ type: "image", source: { type: "base64", media_type: source.mediaType, data: source.data } }, part.cacheControl);
  }
  const inline = parseDataUrl(source.url);
  const wireSource = inline ? { type: "base64", media_type: inline.mediaType, data: inline.data } : { type: "url", url: source.url };
  return withCache({ type: "image", source: wireSource }, part.cacheControl);
}

function documentBlock(part: IRFilePart): Block | undefined {
  let source: Block | undefined;
  if (part.data !== undefined && part.mediaType === "text/plain") {
    source = { type: "text", media_type: "text/plain", data: Buffer.from(part.data, "base64").toString() };
  } else if (part.data !== undefined) {
    source = { type: "base64", media_type: part.mediaType ?? "application/pdf", data: part.data };
  } else if (part.url !== undefined) {
    source = { type: "url", url: part.url };
  }
  if (!source) return undefined;
  const block: Block = { type: "document", source };
  if (part.filename) block.title = part.filename;
  return withCache(block, part.cacheControl);
}

function userBlock(part: IRUserPart): Block | undefined {
  if (part.type === "text") return part.text === "" ? undefined : textBlock(part);
  if (part.type === "image") return imageBlock(part);
  return documentBlock(part);
}

/**
 * Reasoning goes back only to the kind of upstream that produced it, and only
 * with the signature (or redacted data) Anthropic needs to verify it.
 */
function assistantBlock(part: IRAssistantPart): Block | undefined {
  switch (part.type) {
    case "text":
      return part.text === "" ? undefined : textBlock(part);
    case "refusal":
      return part.refusal === "" ? undefined : { type: "text", text: part.refusal };
    case "tool_call":
      return { type: "tool_use", id: part.id, name: part.name, input: parseToolInput(part.arguments) };
    case "reasoning":
      if (part.origin !== "anthropic-messages") return undefined;
      if (part.redacted) return part.encrypted ? { type: "redacted_thinking", data: part.encrypted } : undefined;
      return part.signature ? { type: "thinking", thinking: part.text, signature: part.signature } : undefined;
  }
}

function toolResultContent(content: IRToolResultContent): string | Block[] {
  if (typeof content === "string") return content;
  return content.map((p) => (p.type === "text" ? textBlock(p) : imageBlock(p)));
}

function turnOf(message: Exclude<IRMessage, { role: "system" }>): Turn {
  switch (message.role) {
    case "user":
      return { role: "user", content: message.content.map(userBlock).filter(present) };
    case "assistant":
      return { role: "assistant", content: message.content.map(assistantBlock).filter(present) };
    case "tool": {
      const block: Block = { type: "tool_result", tool_use_id: message.toolCallId };
      const content = toolResultContent(message.content);
      if (content.length > 0) block.content = content;
      if (message.isError) block.is_error = true;
      return { role: "user", content: [block] };
    }
  }
}

export function encodeSystem(messages: IRMessage[]): Block[] | undefined {
  const blocks = messages.flatMap((m) => (m.role === "system" ? m.content.filter((p) => p.text !== "").map(textBlock) : []));
  return blocks.length > 0 ? blocks : undefined;
}

/**
 * Anthropic wants strictly alternating turns with non-empty content: tool results
 * join the user turn, and neighbouring turns of one role are merged once empty
 * ones (say, an assistant turn that held only foreign reasoning) are gone.
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
