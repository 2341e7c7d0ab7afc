import type { InboundFormat } from "../codecs";
import { isObject, type Json } from "./json";

/** The preset's system prompt goes before the request's own instructions, in the request's format. */
export function prependSystemPrompt(format: InboundFormat, body: Json, prompt: string): Json {
  if (format === "openai-chat") {
    const [first, ...rest] = Array.isArray(body.messages) ? (body.messages as unknown[]) : [];
    // joined into the request's own leading system message, so the upstream sees one
    // instruction text whichever endpoint the request came through
    if (isObject(first) && first.role === "system") return { ...body, messages: [{ ...first, content: prepend(prompt, first.content) }, ...rest] };
    return { ...body, messages: [{ role: "system", content: prompt }, ...(first === undefined ? [] : [first]), ...rest] };
  }
  const key = format === "openai-responses" ? "instructions" : "system";
  return { ...body, [key]: prepend(prompt, body[key]) };
}

/** Text (string or text-part array) with the prompt in front; a missing or empty text becomes the prompt. */
function prepend(prompt: string, own: unknown): unknown {
  if (Array.isArray(own)) return own.length === 0 ? prompt : [{ type: "text", text: prompt }, ...own];
  return typeof own === "string" && own !== "" ? `${prompt}\n\n${own}` : prompt;
}
