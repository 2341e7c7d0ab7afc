import type { IRImagePart, IRMessage, IRReasoningPart, IRTextPart, IRUserPart } from "../../ir/types";
import { toDataUrl } from "../data-url";
import { encodeReasoningDetails } from "./reasoning-details";

/** IR messages → Chat messages for an upstream. */

type Json = Record<string, unknown>;

function textPart(part: IRTextPart): Json {
  return part.cacheControl ? { type: "text", text: part.text, cache_control: part.cacheControl } : { type: "text", text: part.text };
}

/** A lone plain text stays a string, which every Chat upstream accepts. */
function textContent(parts: readonly IRTextPart[]): string | Json[] {
  const only = parts[0];
  if (parts.length === 1 && only && !only.cacheControl) return only.text;
  return parts.map(textPart);
}

function imagePart(part: IRImagePart): Json {
  const url = part.source.kind === "url" ? part.source.url : toDataUrl(part.source.mediaType, part.source.data);
  const image: Json = part.detail ? { url, detail: part.detail } : { url };
  return part.cacheControl ? { type: "image_url", image_url: image, cache_control: part.cacheControl } : { type: "image_url", image_url: image };
}

function userPart(part: IRUserPart): Json {
  if (part.type === "text") return textPart(part);
  if (part.type === "image") return imagePart(part);
  const file: Json = {};
  if (part.filename !== undefined) file.filename = part.filename;
  if (part.data !== undefined) file.file_data = toDataUrl(part.mediaType ?? "application/pdf", part.data);
  else if (part.url !== undefined) file.file_data = part.url;
  return part.cacheControl ? { type: "file", file, cache_control: part.cacheControl } : { type: "file", file };
}

function userContent(parts: readonly IRUserPart[]): string | Json[] {
  if (parts.every((part) => part.type === "text")) return textContent(parts as IRTextPart[]);
  return parts.map(userPart);
}

function assistantMessage(message: Extract<IRMessage, { role: "assistant" }>): Json {
  const texts: IRTextPart[] = [];
  const refusals: string[] = [];
  const reasoning: IRReasoningPart[] = [];
  const toolCalls: Json[] = [];
  for (const part of message.content) {
    if (part.type === "text") texts.push(part);
    else if (part.type === "refusal") refusals.push(part.refusal);
    // A signature or payload only means something to the kind of upstream that made it. Gemini
    // signatures go too: Chat routers (OpenRouter) serve Gemini and hand them out as google-gemini-v1.
    else if (part.type === "reasoning") {
      if (part.origin === "openai-chat" || part.origin === "gemini") reasoning.push(part);
    } else toolCalls.push({ id: part.id, type: "function", function: { name: part.name, arguments: part.arguments } });
  }
  const encoded: Json = { role: "assistant" };
  encoded.content = texts.length === 0 ? null : texts.some((part) => part.cacheControl) ? texts.map(textPart) : texts.map((p) => p.text).join("");
  if (message.name !== undefined) encoded.name = message.name;
  if (refusals.length > 0) encoded.refusal = refusals.join("");
  if (toolCalls.length > 0) encoded.tool_calls = toolCalls;
  if (reasoning.length > 0) encoded.reasoning_details = encodeReasoningDetails(reasoning);
  return encoded;
}

export function encodeMessage(message: IRMessage): Json {
  switch (message.role) {
    case "system":
      return { role: "system", content: textContent(message.content) };
    case "user": {
      const encoded: Json = { role: "user", content: userContent(message.content) };
      if (message.name !== undefined) encoded.name = message.name;
      return encoded;
    }
    case "assistant":
      return assistantMessage(message);
    case "tool": {
      const content = typeof message.content === "string" ? message.content : userContent(message.content);
      return { role: "tool", tool_call_id: message.toolCallId, content };
    }
  }
}
