// the inbound formats by their config name (the gateway's InboundFormat is the same type)
import type { InboundFormatName as InboundFormat } from "../../config-schema";
import type { CapturedInput, ObservedOperation } from "./captured-content";

export const OPERATION_OF_FORMAT: Readonly<Record<InboundFormat, ObservedOperation>> = {
  "openai-chat": "chat",
  "openai-responses": "responses",
  "anthropic-messages": "messages",
};

/** The body's fields that hold the conversation and the tools, by format; everything else is a parameter. */
const CONTENT_FIELDS: Readonly<Record<InboundFormat, ReadonlySet<string>>> = {
  "openai-chat": new Set(["messages", "tools"]),
  "openai-responses": new Set(["input", "instructions", "tools"]),
  "anthropic-messages": new Set(["messages", "system", "tools"]),
};

/** The body without its content fields: on the serving thread for every forwarded request, so a loop rather than entries → filter → fromEntries (a third of the time). */
function parametersOf(body: Readonly<Record<string, unknown>>, content: ReadonlySet<string>): Record<string, unknown> {
  const parameters: Record<string, unknown> = {};
  for (const key in body) if (!content.has(key) && Object.hasOwn(body, key)) parameters[key] = body[key];
  return parameters;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The request's messages as the client sent them, in its format: Chat `messages`; Responses
 * `instructions` as a system message before `input` (a string input as one user message);
 * Messages `system` as a system message before `messages`. Read from the inbound body, so a
 * preset's merged system prompt or the items a previous_response_id brings are not in it.
 */
export function completionInput(format: InboundFormat, body: unknown): CapturedInput {
  const b = isObject(body) ? body : {};
  const parameters = parametersOf(b, CONTENT_FIELDS[format]);
  const tools = b.tools ?? null;
  switch (format) {
    case "openai-chat":
      return { messages: b.messages ?? [], tools, parameters };
    case "openai-responses": {
      const input = typeof b.input === "string" ? [{ role: "user", content: b.input }] : Array.isArray(b.input) ? b.input : [];
      return { messages: b.instructions ? [{ role: "system", content: b.instructions }, ...input] : input, tools, parameters };
    }
    case "anthropic-messages": {
      const messages = Array.isArray(b.messages) ? b.messages : [];
      return { messages: b.system ? [{ role: "system", content: b.system }, ...messages] : messages, tools, parameters };
    }
  }
}

/** An embeddings request: its input as one user message (a string, or the list as sent). */
export function embeddingsInput(body: Readonly<Record<string, unknown>>): CapturedInput {
  const { input, ...parameters } = body;
  return { messages: [{ role: "user", content: input }], tools: null, parameters };
}

/** A video request: its prompt as one user message, the other parameters beside it. */
export function videoInput(params: Readonly<Record<string, unknown>>): CapturedInput {
  const { prompt, ...parameters } = params;
  return { messages: [{ role: "user", content: prompt }], tools: null, parameters };
}

/** A media request (an image's prompt, the text to speak, a rerank query): that text as one user message, the other parameters beside it. */
export function promptInput(prompt: unknown, parameters: Readonly<Record<string, unknown>>): CapturedInput {
  return { messages: [{ role: "user", content: prompt }], tools: null, parameters };
}
