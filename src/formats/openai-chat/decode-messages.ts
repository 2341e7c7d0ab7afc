import { badRequest } from "../../errors";
import type { CacheControl, IRAssistantPart, IRMessage, IRTextPart, IRToolResultContent, IRUserPart } from "../../ir/types";
import { parseDataUrl } from "../data-url";
import { decodeReasoningDetails } from "./reasoning-details";
import type { ChatMessageBody } from "./schema";
import type { WireReasoningDetail } from "./wire";

/** Inbound Chat messages → IR messages. */

type ContentPart = Exclude<Extract<ChatMessageBody, { role: "user" }>["content"], string>[number];
type TextPartBody = Extract<ContentPart, { type: "text" }>;
type AssistantBody = Extract<ChatMessageBody, { role: "assistant" }>;

function textPart(part: TextPartBody): IRTextPart {
  const decoded: IRTextPart = { type: "text", text: part.text };
  if (part.cache_control) decoded.cacheControl = part.cache_control as CacheControl;
  return decoded;
}

function decodeText(content: string | TextPartBody[]): IRTextPart[] {
  return typeof content === "string" ? [{ type: "text", text: content }] : content.map(textPart);
}

function decodeUserPart(part: ContentPart): IRUserPart {
  switch (part.type) {
    case "text":
      return textPart(part);
    case "image_url": {
      const inline = parseDataUrl(part.image_url.url);
      const source = inline ? { kind: "base64" as const, ...inline } : { kind: "url" as const, url: part.image_url.url };
      const detail = part.image_url.detail;
      return detail && detail !== "original" ? { type: "image", source, detail } : { type: "image", source };
    }
    case "file": {
      const file: IRUserPart = { type: "file" };
      if (part.file.filename !== undefined) file.filename = part.file.filename;
      const data = part.file.file_data;
      if (data === undefined) {
        // An uploaded-file id means nothing to any upstream but the one holding the upload.
        throw badRequest("file content parts need file_data; file_id is not supported", { field: "messages" });
      }
      const inline = parseDataUrl(data);
      if (inline) Object.assign(file, { mediaType: inline.mediaType, data: inline.data });
      else if (/^https?:\/\//i.test(data)) file.url = data;
      else file.data = data;
      return file;
    }
    default:
      // Sending the request without the audio/video would answer a different question.
      throw badRequest(`${part.type} content parts are not supported`, { field: "messages" });
  }
}

function decodeUserContent(content: string | ContentPart[]): IRUserPart[] {
  return typeof content === "string" ? [{ type: "text", text: content }] : content.map(decodeUserPart);
}

function decodeToolContent(content: string | ContentPart[]): IRToolResultContent {
  if (typeof content === "string") return content;
  return content.map((part) => {
    const decoded = decodeUserPart(part);
    if (decoded.type === "file") throw badRequest("file content parts are not supported in tool messages", { field: "messages" });
    return decoded;
  });
}

function decodeAssistant(message: AssistantBody): IRMessage {
  const content: IRAssistantPart[] = [];
  if (message.reasoning_details && message.reasoning_details.length > 0) {
    content.push(...decodeReasoningDetails(message.reasoning_details as WireReasoningDetail[]));
  } else if (message.reasoning) {
    content.push({ type: "reasoning", text: message.reasoning, origin: "unknown" });
  }
  if (typeof message.content === "string") {
    if (message.content !== "") content.push({ type: "text", text: message.content });
  } else if (message.content) {
    for (const part of message.content) if (part.type === "text") content.push(textPart(part));
  }
  if (message.refusal) content.push({ type: "refusal", refusal: message.refusal });
  for (const call of message.tool_calls ?? []) {
    content.push({ type: "tool_call", id: call.id, name: call.function.name, arguments: call.function.arguments });
  }
  return message.name !== undefined ? { role: "assistant", content, name: message.name } : { role: "assistant", content };
}

export function decodeMessage(message: ChatMessageBody): IRMessage {
  switch (message.role) {
    case "system":
    case "developer":
      return { role: "system", content: decodeText(message.content) };
    case "user": {
      const content = decodeUserContent(message.content);
      return message.name !== undefined ? { role: "user", content, name: message.name } : { role: "user", content };
    }
    case "assistant":
      return decodeAssistant(message);
    case "tool":
      return { role: "tool", toolCallId: message.tool_call_id, content: decodeToolContent(message.content) };
  }
}
