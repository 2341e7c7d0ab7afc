import type { IRAssistantPart, IRFilePart, IRImagePart, IRMessage, IRReasoningPart, IRTextPart, IRToolResultContent } from "../../ir/types";
import { toDataUrl } from "../data-url";

/** IR messages → Responses `input` items for an upstream. */

type Item = Record<string, unknown>;

const inputText = (part: IRTextPart): Item => ({ type: "input_text", text: part.text });

function inputImage(part: IRImagePart): Item {
  const url = part.source.kind === "url" ? part.source.url : toDataUrl(part.source.mediaType, part.source.data);
  return { type: "input_image", image_url: url, detail: part.detail ?? "auto" };
}

function inputFile(part: IRFilePart): Item {
  const file: Item = { type: "input_file" };
  if (part.filename !== undefined) file.filename = part.filename;
  if (part.data !== undefined) file.file_data = toDataUrl(part.mediaType ?? "application/pdf", part.data);
  else if (part.url !== undefined) file.file_url = part.url;
  return file;
}

function toolOutput(content: IRToolResultContent): string | Item[] {
  if (typeof content === "string") return content;
  return content.map((part) => (part.type === "text" ? inputText(part) : inputImage(part)));
}

/** Only OpenAI's own reasoning can go back: any other kind's payload means nothing to it. */
function reasoningItem(part: IRReasoningPart): Item | undefined {
  if (part.origin !== "openai-responses") return undefined;
  const item: Item = { type: "reasoning" };
  if (part.id !== undefined) item.id = part.id;
  if (!part.summary && part.text !== "") {
    item.summary = [];
    item.content = [{ type: "reasoning_text", text: part.text }];
  } else {
    item.summary = part.text === "" ? [] : [{ type: "summary_text", text: part.text }];
  }
  if (part.encrypted !== undefined) item.encrypted_content = part.encrypted;
  return item;
}

function assistantItems(content: IRAssistantPart[]): Item[] {
  const items: Item[] = [];
  let message: Item[] | undefined;
  const flush = () => {
    if (message) items.push({ type: "message", role: "assistant", content: message });
    message = undefined;
  };
  for (const part of content) {
    if (part.type === "text" || part.type === "refusal") {
      message ??= [];
      message.push(part.type === "text" ? { type: "output_text", text: part.text, annotations: [] } : { type: "refusal", refusal: part.refusal });
      continue;
    }
    flush();
    if (part.type === "tool_call") {
      items.push({ type: "function_call", call_id: part.id, name: part.name, arguments: part.arguments });
    } else {
      const item = reasoningItem(part);
      if (item) items.push(item);
    }
  }
  flush();
  return items;
}

export function encodeInput(messages: IRMessage[]): Item[] {
  const items: Item[] = [];
  for (const message of messages) {
    switch (message.role) {
      case "system":
        items.push({ type: "message", role: "system", content: message.content.map(inputText) });
        break;
      case "user":
        items.push({
          type: "message",
          role: "user",
          content: message.content.map((part) => (part.type === "text" ? inputText(part) : part.type === "image" ? inputImage(part) : inputFile(part))),
        });
        break;
      case "assistant":
        items.push(...assistantItems(message.content));
        break;
      case "tool":
        items.push({ type: "function_call_output", call_id: message.toolCallId, output: toolOutput(message.content) });
        break;
    }
  }
  return items;
}

export const hasResponsesReasoning = (messages: IRMessage[]): boolean =>
  messages.some((message) => message.role === "assistant" && message.content.some((part) => part.type === "reasoning" && part.origin === "openai-responses"));
