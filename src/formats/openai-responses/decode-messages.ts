import type { Static } from "elysia";
import { badRequest } from "../../errors";
import type { IRAssistantPart, IRFilePart, IRImagePart, IRMessage, IRReasoningPart, IRTextPart, IRToolResultContent, IRUserPart } from "../../ir/types";
import { parseDataUrl } from "../data-url";
import { unpackForeignSignature } from "../reasoning-signature";
import type { Input, InputFilePart, InputImagePart, MessageItem, ReasoningItem } from "./schema-messages";

type InputValue = Static<typeof Input>;
type Item = Exclude<InputValue, string>[number];
type Message = Static<typeof MessageItem>;
type Part = Exclude<Message["content"], string | null>[number];

function imagePart(part: Static<typeof InputImagePart>): IRImagePart {
  if (!part.image_url) throw badRequest("input_image needs image_url: uploaded file ids are not supported", { field: "input" });
  const inline = parseDataUrl(part.image_url);
  const source: IRImagePart["source"] = inline ? { kind: "base64", ...inline } : { kind: "url", url: part.image_url };
  const image: IRImagePart = { type: "image", source };
  // IR has no "original"; "high" is the closest fidelity upstreams understand.
  if (part.detail) image.detail = part.detail === "original" ? "high" : part.detail;
  return image;
}

function filePart(part: Static<typeof InputFilePart>): IRFilePart {
  const file: IRFilePart = { type: "file" };
  if (part.filename !== undefined) file.filename = part.filename;
  if (part.file_data !== undefined) {
    const inline = parseDataUrl(part.file_data);
    if (inline) {
      file.mediaType = inline.mediaType;
      file.data = inline.data;
    } else {
      file.data = part.file_data;
    }
  } else if (part.file_url !== undefined) {
    file.url = part.file_url;
  } else {
    throw badRequest("input_file needs file_data or file_url: uploaded file ids are not supported", { field: "input" });
  }
  return file;
}

const text = (value: string): IRTextPart => ({ type: "text", text: value });

function userPart(part: Part): IRUserPart {
  switch (part.type) {
    case "input_text":
    case "output_text":
      return text(part.text);
    case "refusal":
      return text(part.refusal);
    case "input_image":
      return imagePart(part);
    case "input_file":
      return filePart(part);
    default:
      throw badRequest(`${part.type} content is not supported`, { field: "input" });
  }
}

function assistantParts(content: Message["content"]): IRAssistantPart[] {
  if (content === null) return [];
  if (typeof content === "string") return content === "" ? [] : [text(content)];
  return content.map((part): IRAssistantPart => {
    if (part.type === "output_text" || part.type === "input_text") return text(part.text);
    if (part.type === "refusal") return { type: "refusal", refusal: part.refusal };
    throw badRequest(`assistant messages cannot carry ${part.type} content`, { field: "input" });
  });
}

function systemParts(content: Message["content"]): IRTextPart[] {
  if (content === null) return [];
  if (typeof content === "string") return [text(content)];
  return content.map((part) => {
    if (part.type === "input_text" || part.type === "output_text") return text(part.text);
    throw badRequest(`system and developer messages cannot carry ${part.type} content`, { field: "input" });
  });
}

export function reasoningPart(item: Static<typeof ReasoningItem>): IRReasoningPart {
  const summaries = (item.summary ?? []).map((entry) => entry.text);
  const raw = (item.content ?? []).map((entry) => entry.text);
  const part: IRReasoningPart = { type: "reasoning", text: "", id: item.id, origin: "openai-responses" };
  if (summaries.length > 0 || raw.length === 0) {
    part.text = summaries.join("\n\n");
    part.summary = true;
  } else {
    part.text = raw.join("");
  }
  if (item.encrypted_content) {
    // Reasoning that another kind of upstream produced travels packed in encrypted_content
    // (see encode-result); unpack it so it goes back only to that kind.
    const foreign = unpackForeignSignature(item.encrypted_content);
    if (foreign) {
      part.origin = foreign.origin;
      if (foreign.id !== undefined) part.id = foreign.id;
      else delete part.id;
      if (foreign.encrypted !== undefined) part.encrypted = foreign.encrypted;
      if (foreign.signature !== undefined) part.signature = foreign.signature;
      if (part.text === "" && foreign.encrypted !== undefined && foreign.origin === "anthropic-messages") part.redacted = true;
    } else {
      part.encrypted = item.encrypted_content;
    }
  }
  return part;
}

function toolOutput(output: Extract<Item, { type: "function_call_output" }>["output"]): IRToolResultContent {
  if (typeof output === "string") return output;
  return output.map((part) => {
    if (part.type === "input_text") return text(part.text);
    if (part.type === "input_image") return imagePart(part);
    throw badRequest("function_call_output cannot carry input_file content", { field: "input" });
  });
}

/** Items in order → IR messages; consecutive assistant-side items (text, reasoning, calls) form one assistant turn. */
export function decodeInput(input: InputValue | undefined): IRMessage[] {
  if (input === undefined) return [];
  if (typeof input === "string") return [{ role: "user", content: [text(input)] }];
  const messages: IRMessage[] = [];
  let assistant: IRAssistantPart[] | undefined;
  const flush = () => {
    if (assistant) messages.push({ role: "assistant", content: assistant });
    assistant = undefined;
  };
  const appendAssistant = (parts: IRAssistantPart[]) => {
    assistant ??= [];
    assistant.push(...parts);
  };
  for (const item of input) {
    switch (item.type) {
      case "function_call":
        appendAssistant([{ type: "tool_call", id: item.call_id, name: item.name, arguments: item.arguments }]);
        break;
      case "reasoning":
        appendAssistant([reasoningPart(item)]);
        break;
      case "item_reference":
        // planning resolves references before decoding; one left here names nothing stored
        throw badRequest(`Invalid field 'input': item_reference '${item.id}' cannot be resolved here`, { field: "input" });
      case "function_call_output":
        flush();
        messages.push({ role: "tool", toolCallId: item.call_id, content: toolOutput(item.output) });
        break;
      default:
        if (item.role === "assistant") {
          appendAssistant(assistantParts(item.content));
          break;
        }
        flush();
        if (item.role === "system" || item.role === "developer") {
          messages.push({ role: "system", content: systemParts(item.content) });
        } else {
          const content = item.content ?? [];
          messages.push({ role: "user", content: typeof content === "string" ? [text(content)] : content.map(userPart) });
        }
    }
  }
  flush();
  return messages;
}
