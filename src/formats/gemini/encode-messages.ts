import type { IRFilePart, IRImagePart, IRMessage, IRToolResultContent, IRUserPart } from "../../ir/types";
import { parseToolInput } from "../anthropic-messages/encode-blocks";
import { parseDataUrl } from "../data-url";
import { PLACEHOLDER_SIGNATURE, turnSignatures } from "./thought-signatures";

/** IR messages → Gemini `systemInstruction` and `contents` (https://ai.google.dev/api/caching#Content). */

type Part = Record<string, unknown>;
export type Content = { role: "user" | "model"; parts: Part[] };

const IMAGE_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
  heic: "image/heic",
  heif: "image/heif",
};

/** fileData needs a MIME type; a URL's extension is the only hint the request gives. */
function imageTypeOf(url: string): string {
  const extension = /\.([a-z0-9]+)(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase();
  return (extension && IMAGE_TYPES[extension]) || "image/jpeg";
}

function imagePart(part: IRImagePart): Part {
  const { source } = part;
  if (source.kind === "base64") return { inlineData: { mimeType: source.mediaType, data: source.data } };
  const inline = parseDataUrl(source.url);
  if (inline) return { inlineData: { mimeType: inline.mediaType, data: inline.data } };
  return { fileData: { mimeType: imageTypeOf(source.url), fileUri: source.url } };
}

function filePart(part: IRFilePart): Part | undefined {
  const mimeType = part.mediaType ?? "application/pdf";
  if (part.data !== undefined) return { inlineData: { mimeType, data: part.data } };
  if (part.url !== undefined) return { fileData: { mimeType, fileUri: part.url } };
  return undefined;
}

function userPart(part: IRUserPart): Part | undefined {
  if (part.type === "text") return part.text === "" ? undefined : { text: part.text };
  if (part.type === "image") return imagePart(part);
  return filePart(part);
}

const present = (part: Part | undefined): part is Part => part !== undefined;

/**
 * An assistant turn as a model content. Gemini reads no thought text back, only signatures, each
 * on the part it came with: a call's on that call, another on the last text part. The first call
 * of a turn that has none (another model made it) gets Google's placeholder.
 */
function modelParts(message: Extract<IRMessage, { role: "assistant" }>): Part[] {
  const signatures = turnSignatures(message.content);
  const parts: Part[] = [];
  let firstCall: Part | undefined;
  for (const part of message.content) {
    if (part.type === "text" && part.text !== "") parts.push({ text: part.text });
    else if (part.type === "refusal" && part.refusal !== "") parts.push({ text: part.refusal });
    else if (part.type === "tool_call") {
      const call: Part = { functionCall: { id: part.id, name: part.name, args: parseToolInput(part.arguments) } };
      const signature = signatures.byCall.get(part.id);
      if (signature !== undefined) call.thoughtSignature = signature;
      firstCall ??= call;
      parts.push(call);
    }
  }
  if (firstCall && firstCall.thoughtSignature === undefined) firstCall.thoughtSignature = PLACEHOLDER_SIGNATURE;
  const lastText = parts.findLast((part) => "text" in part);
  const loose = signatures.loose.at(-1);
  if (lastText && loose !== undefined) lastText.thoughtSignature = loose;
  return parts;
}

/**
 * A tool result as a functionResponse. `response` must be an object: a text result is wrapped as
 * `{result}` (`{error}` when the tool failed, the key Google names for error details); images follow
 * as parts of their own.
 */
function toolResultParts(message: Extract<IRMessage, { role: "tool" }>, names: ReadonlyMap<string, string>): Part[] {
  const { text, images } = splitToolContent(message.content);
  const response = message.isError ? { error: text } : { result: text };
  const name = names.get(message.toolCallId) ?? message.toolCallId;
  return [{ functionResponse: { id: message.toolCallId, name, response } }, ...images.map(imagePart)];
}

function splitToolContent(content: IRToolResultContent): { text: string; images: IRImagePart[] } {
  if (typeof content === "string") return { text: content, images: [] };
  const text = content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
  return { text, images: content.filter((part): part is IRImagePart => part.type === "image") };
}

export function encodeSystemInstruction(messages: readonly IRMessage[]): { parts: Part[] } | undefined {
  const parts = messages.flatMap((m) => (m.role === "system" ? m.content.filter((p) => p.text !== "").map((p) => ({ text: p.text })) : []));
  return parts.length > 0 ? { parts } : undefined;
}

/**
 * Contents alternate between user and model. The results of one turn's calls travel in one user
 * content: Gemini wants as many functionResponse parts there as the model content has calls.
 */
export function encodeContents(messages: readonly IRMessage[]): Content[] {
  const names = new Map(
    messages.flatMap((m) => (m.role === "assistant" ? m.content.flatMap((p) => (p.type === "tool_call" ? [[p.id, p.name] as const] : [])) : [])),
  );
  const contents: Content[] = [];
  let previous: IRMessage | undefined;
  for (const message of messages) {
    if (message.role === "system") continue;
    const content: Content =
      message.role === "assistant"
        ? { role: "model", parts: modelParts(message) }
        : { role: "user", parts: message.role === "tool" ? toolResultParts(message, names) : message.content.map(userPart).filter(present) };
    const last = contents.at(-1);
    if (content.parts.length === 0) continue;
    if (last && message.role === "tool" && previous?.role === "tool") last.parts.push(...content.parts);
    else contents.push(content);
    previous = message;
  }
  return contents;
}
