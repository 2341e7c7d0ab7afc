import type {
  CacheControl,
  IRAssistantPart,
  IRFilePart,
  IRImagePart,
  IRMessage,
  IRReasoningPart,
  IRTextPart,
  IRToolResultContent,
  IRUserPart,
} from "../../ir/types";
import { unpackForeignSignature } from "../reasoning-signature";
import type {
  DocumentBlock,
  ImageBlock,
  MessagesContentBlock,
  MessagesMessage,
  RedactedThinkingBlock,
  TextBlock,
  ThinkingBlock,
  ToolResultBlock,
  ToolUseBlock,
} from "./schema";

/** Inbound Anthropic content blocks -> IR message parts. Block kinds the IR cannot carry are skipped. */

function withCache<P extends { cacheControl?: CacheControl }>(part: P, cacheControl: CacheControl | undefined): P {
  if (cacheControl) part.cacheControl = { ...cacheControl };
  return part;
}

export function decodeTextBlock(block: TextBlock): IRTextPart {
  return withCache<IRTextPart>({ type: "text", text: block.text }, block.cache_control);
}

function decodeImage(block: ImageBlock): IRImagePart | undefined {
  const source = block.source;
  if (source.type === "base64") {
    return withCache<IRImagePart>({ type: "image", source: { kind: "base64", mediaType: source.media_type, data: source.data } }, block.cache_control);
  }
  if (source.type === "url") return withCache<IRImagePart>({ type: "image", source: { kind: "url", url: source.url } }, block.cache_control);
  return undefined; // Files API ids mean nothing to other upstreams
}

const toBase64 = (text: string) => Buffer.from(text).toString("base64");

function decodeDocument(block: DocumentBlock): IRFilePart | undefined {
  const source = block.source;
  const filename = block.title ?? undefined;
  let part: IRFilePart | undefined;
  if (source.type === "base64") part = { type: "file", mediaType: source.media_type, data: source.data };
  else if (source.type === "url") part = { type: "file", url: source.url };
  else if (source.type === "text") part = { type: "file", mediaType: "text/plain", data: toBase64(source.data) };
  else if (source.type === "content") {
    const text = typeof source.content === "string" ? source.content : source.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
    part = { type: "file", mediaType: "text/plain", data: toBase64(text) };
  }
  if (!part) return undefined;
  if (filename) part.filename = filename;
  return withCache(part, block.cache_control);
}

function decodeUserPart(block: MessagesContentBlock): IRUserPart | undefined {
  switch (block.type) {
    case "text":
      return decodeTextBlock(block as TextBlock);
    case "image":
      return decodeImage(block as ImageBlock);
    case "document":
      return decodeDocument(block as DocumentBlock);
    default:
      return undefined;
  }
}

function decodeToolResultContent(content: ToolResultBlock["content"]): IRToolResultContent {
  if (content === undefined) return "";
  if (typeof content === "string") return content;
  const parts: Array<IRTextPart | IRImagePart> = [];
  for (const block of content) {
    if (block.type === "text") parts.push(decodeTextBlock(block as TextBlock));
    else if (block.type === "image") {
      const image = decodeImage(block as ImageBlock);
      if (image) parts.push(image);
    } else if (block.type === "document" && (block as DocumentBlock).source.type === "text") {
      parts.push({ type: "text", text: ((block as DocumentBlock).source as { data: string }).data });
    }
  }
  return parts;
}

function decodeToolResult(block: ToolResultBlock): IRMessage {
  const message: IRMessage = {
    role: "tool",
    toolCallId: block.tool_use_id,
    content: decodeToolResultContent(block.content),
  };
  if (block.is_error) message.isError = true;
  return message;
}

/** A thinking block we sent for another upstream's reasoning carries that reasoning packed in its signature. */
function decodeThinking(block: ThinkingBlock): IRReasoningPart {
  const packed = block.signature ? unpackForeignSignature(block.signature) : undefined;
  const part: IRReasoningPart = { type: "reasoning", text: block.thinking, origin: packed?.origin ?? "anthropic-messages" };
  if (!packed) {
    if (block.signature) part.signature = block.signature;
    return part;
  }
  if (packed.id) part.id = packed.id;
  if (packed.encrypted) part.encrypted = packed.encrypted;
  if (packed.signature) part.signature = packed.signature;
  if (packed.summary !== undefined) part.summary = packed.summary;
  return part;
}

function decodeAssistantPart(block: MessagesContentBlock): IRAssistantPart | undefined {
  switch (block.type) {
    case "text":
      return decodeTextBlock(block as TextBlock);
    case "tool_use": {
      const b = block as ToolUseBlock;
      return { type: "tool_call", id: b.id, name: b.name, arguments: JSON.stringify(b.input ?? {}) };
    }
    case "thinking":
      return decodeThinking(block as ThinkingBlock);
    case "redacted_thinking":
      return {
        type: "reasoning",
        text: "",
        redacted: true,
        encrypted: (block as RedactedThinkingBlock).data,
        origin: "anthropic-messages",
      };
    default:
      return undefined;
  }
}

/**
 * Anthropic puts tool results inside user turns; the IR has separate tool messages.
 * A user turn is split at each tool_result so the relative order of results and
 * other content is kept.
 */
function decodeUserTurn(blocks: MessagesContentBlock[]): IRMessage[] {
  const out: IRMessage[] = [];
  let pending: IRUserPart[] = [];
  const flush = () => {
    if (pending.length > 0) out.push({ role: "user", content: pending });
    pending = [];
  };
  for (const block of blocks) {
    if (block.type === "tool_result") {
      flush();
      out.push(decodeToolResult(block as ToolResultBlock));
      continue;
    }
    const part = decodeUserPart(block);
    if (part) pending.push(part);
  }
  flush();
  return out;
}

export function decodeSystem(system: string | TextBlock[]): IRMessage {
  return { role: "system", content: typeof system === "string" ? [{ type: "text", text: system }] : system.map(decodeTextBlock) };
}

export function decodeMessage(message: MessagesMessage): IRMessage[] {
  const blocks: MessagesContentBlock[] = typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
  switch (message.role) {
    case "system": {
      const text = blocks.filter((b) => b.type === "text").map((b) => decodeTextBlock(b as TextBlock));
      return [{ role: "system", content: text }];
    }
    case "assistant": {
      const content = blocks.flatMap((b) => decodeAssistantPart(b) ?? []);
      return [{ role: "assistant", content }];
    }
    case "user":
      return decodeUserTurn(blocks);
  }
}
