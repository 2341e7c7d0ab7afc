import type { IRReasoningPart, ReasoningOrigin } from "../../ir/types";
import type { ChatReasoningDetail } from "./schema";
import type { WireReasoningDetail } from "./wire";

/**
 * `reasoning_details` is OpenRouter's lossless carrier for reasoning in the Chat
 * format. Its `format` says which kind of upstream made an opaque payload, which is
 * exactly what IR `origin` tracks (a signature only goes back to its maker).
 */

export const ANTHROPIC_FORMAT = "anthropic-claude-v1";
export const OPENAI_RESPONSES_FORMAT = "openai-responses-v1";
/** The gateway's name for reasoning from Bedrock's Converse API, whose signature goes back only there. */
export const BEDROCK_FORMAT = "amazon-bedrock-converse-v1";
/** Gemini thought signatures, as OpenRouter labels them: `reasoning.encrypted` items whose `id` is the tool call they belong to. */
export const GEMINI_FORMAT = "google-gemini-v1";

export function formatFromOrigin(origin: ReasoningOrigin): string {
  if (origin === "anthropic-messages") return ANTHROPIC_FORMAT;
  if (origin === "openai-responses") return OPENAI_RESPONSES_FORMAT;
  if (origin === "bedrock") return BEDROCK_FORMAT;
  if (origin === "gemini") return GEMINI_FORMAT;
  return "unknown";
}

/**
 * Other named formats (xai-responses-v1, …) came from a Chat-speaking upstream such as
 * OpenRouter, so they may go back to one. An unnamed format with an opaque payload is treated
 * the same way; unnamed plain text has no maker to return to. google-gemini-v1 is a Gemini
 * signature wherever it came from: a native Gemini upstream can check it, and a Chat upstream
 * still gets it back (openai-chat/encode-messages.ts).
 */
export function originFromFormat(format: string | null | undefined, hasPayload: boolean): ReasoningOrigin {
  if (format === ANTHROPIC_FORMAT) return "anthropic-messages";
  if (format === OPENAI_RESPONSES_FORMAT) return "openai-responses";
  if (format === BEDROCK_FORMAT) return "bedrock";
  if (format === GEMINI_FORMAT) return "gemini";
  if (format && format !== "unknown") return "openai-chat";
  return hasPayload ? "openai-chat" : "unknown";
}

const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

function withId(part: IRReasoningPart, id: unknown): IRReasoningPart {
  const value = str(id);
  if (value !== undefined) part.id = value;
  return part;
}

/** An encrypted item carrying the payload of the reasoning item just before it (same id). */
function mergesInto(previous: IRReasoningPart | undefined, origin: ReasoningOrigin, id: string | undefined): boolean {
  if (!previous || previous.redacted || previous.encrypted !== undefined || previous.origin !== origin) return false;
  return id === undefined || id === previous.id;
}

export function decodeReasoningDetails(details: readonly WireReasoningDetail[]): IRReasoningPart[] {
  const parts: IRReasoningPart[] = [];
  for (const detail of details) {
    if (!detail || typeof detail !== "object") continue;
    if (detail.type === "reasoning.text") {
      const signature = str(detail.signature);
      const part = withId({ type: "reasoning", text: str(detail.text) ?? "", origin: originFromFormat(detail.format, signature !== undefined) }, detail.id);
      if (signature !== undefined) part.signature = signature;
      parts.push(part);
    } else if (detail.type === "reasoning.summary") {
      const origin = originFromFormat(detail.format, false);
      parts.push(withId({ type: "reasoning", text: str(detail.summary) ?? "", summary: true, origin }, detail.id));
    } else if (detail.type === "reasoning.encrypted") {
      const data = str(detail.data) ?? "";
      const origin = originFromFormat(detail.format, true);
      // Anthropic's redacted_thinking and Bedrock's redactedContent are blocks of their own
      if (origin === "anthropic-messages" || origin === "bedrock") {
        parts.push({ type: "reasoning", text: "", encrypted: data, redacted: true, origin });
        continue;
      }
      const previous = parts.at(-1);
      if (mergesInto(previous, origin, str(detail.id)) && previous) previous.encrypted = data;
      else parts.push(withId({ type: "reasoning", text: "", encrypted: data, origin }, detail.id));
    }
    // reasoning.server_tool_call records a tool the upstream ran itself; the IR has no slot for it.
  }
  return parts;
}

/** Builds details for one message, numbering items in order as OpenRouter does. */
export class ReasoningDetailWriter {
  private next = 0;

  /** `index` is given when the item continues one already started in a stream. */
  textItem(part: Pick<IRReasoningPart, "origin" | "id" | "summary">, text: string, signature?: string, index?: number): ChatReasoningDetail {
    const at = index ?? this.reserve();
    const tail = { ...(signature !== undefined ? { signature } : {}), ...this.source(part) };
    return part.summary ? { type: "reasoning.summary", summary: text, index: at, ...tail } : { type: "reasoning.text", text, index: at, ...tail };
  }

  encryptedItem(part: Pick<IRReasoningPart, "origin" | "id">, data: string): ChatReasoningDetail {
    return { type: "reasoning.encrypted", data, index: this.reserve(), ...this.source(part) };
  }

  /** Reserves the index for an item whose pieces arrive over several stream chunks. */
  reserve(): number {
    return this.next++;
  }

  private source(part: Pick<IRReasoningPart, "origin" | "id">): { id?: string; format: string } {
    return part.id !== undefined ? { id: part.id, format: formatFromOrigin(part.origin) } : { format: formatFromOrigin(part.origin) };
  }
}

/** Whole reasoning parts → detail items (non-streaming answers and upstream requests). */
export function encodeReasoningDetails(parts: readonly IRReasoningPart[]): ChatReasoningDetail[] {
  const writer = new ReasoningDetailWriter();
  const items: ChatReasoningDetail[] = [];
  for (const part of parts) {
    if (part.redacted) {
      items.push(writer.encryptedItem(part, part.encrypted ?? ""));
      continue;
    }
    const payloadOnly = part.text === "" && part.encrypted !== undefined && part.signature === undefined && !part.summary;
    if (!payloadOnly) items.push(writer.textItem(part, part.text, part.signature));
    if (part.encrypted !== undefined) items.push(writer.encryptedItem(part, part.encrypted));
  }
  return items;
}
