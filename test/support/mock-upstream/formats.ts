// Picks the wire format from the request path and gathers each format's renderers.
import type { MockTurn, RenderContext, SseEvent } from "./types.ts";
import { renderChatEvents, renderChatJson, renderChatStreamError } from "./render-chat.ts";
import { renderResponsesEvents, renderResponsesJson, renderResponsesStreamError } from "./render-responses.ts";
import { renderAnthropicEvents, renderAnthropicJson, renderAnthropicStreamError } from "./render-anthropic.ts";
import { renderEmbeddingsJson } from "./render-embeddings.ts";
import { googleErrorBody, renderGeminiEvents, renderGeminiJson, renderGeminiStreamError } from "./render-gemini.ts";
import { anthropicErrorBody, openAiErrorBody } from "./render-error.ts";

export type FormatName = "chat" | "responses" | "messages" | "embeddings" | "gemini";

export type Format = {
  name: FormatName;
  json(turn: MockTurn, ctx: RenderContext): unknown;
  /** null: the format has no streaming form. */
  events: ((turn: MockTurn, ctx: RenderContext) => SseEvent[]) | null;
  streamError(turn: MockTurn, ctx: RenderContext, afterEvents: number, message: string, type?: string): SseEvent[];
  errorBody(status: number, requestId: string): unknown;
  requestIdHeader: string;
  /** whether the request asks for a stream; absent: `stream: true` in the body */
  streamed?: (path: string) => boolean;
};

const openAiError = (status: number) => openAiErrorBody(status);

const FORMATS: Record<FormatName, Format> = {
  chat: {
    name: "chat",
    json: renderChatJson,
    events: renderChatEvents,
    streamError: (_t, _c, _n, message, type) => renderChatStreamError(message, type ?? "server_error"),
    errorBody: openAiError,
    requestIdHeader: "x-request-id",
  },
  responses: {
    name: "responses",
    json: renderResponsesJson,
    events: renderResponsesEvents,
    streamError: (t, c, n, message, type) => renderResponsesStreamError(t, c, n, message, type ?? "server_error"),
    errorBody: openAiError,
    requestIdHeader: "x-request-id",
  },
  messages: {
    name: "messages",
    json: renderAnthropicJson,
    events: renderAnthropicEvents,
    streamError: (_t, _c, _n, message, type) => renderAnthropicStreamError(message, type ?? "overloaded_error"),
    errorBody: (status, requestId) => anthropicErrorBody(status, requestId),
    requestIdHeader: "request-id",
  },
  gemini: {
    name: "gemini",
    json: renderGeminiJson,
    events: renderGeminiEvents,
    streamError: (_t, _c, _n, message, type) => renderGeminiStreamError(message, type),
    errorBody: (status) => googleErrorBody(status),
    requestIdHeader: "x-goog-request-id",
    // Google puts the stream switch in the method: :streamGenerateContent?alt=sse
    streamed: (path) => path.includes(":streamGenerateContent"),
  },
  embeddings: {
    name: "embeddings",
    json: renderEmbeddingsJson,
    events: null,
    streamError: () => [],
    errorBody: openAiError,
    requestIdHeader: "x-request-id",
  },
};

/** The model a path names (`…/models/{model}:{method}`: Gemini, and Vertex AI's publishers), when the body does not. */
export function modelInPath(path: string): string | undefined {
  return /\/models\/([^/:]+):/.exec(path)?.[1];
}

export function formatForPath(path: string): Format | undefined {
  // Gemini API and Vertex AI's publishers/google; Vertex's publishers/anthropic take Messages bodies
  if (/:(stream)?[Gg]enerateContent$/.test(path)) return FORMATS.gemini;
  if (/:(stream)?[Rr]awPredict$/.test(path)) return FORMATS.messages;
  if (path.endsWith("/chat/completions")) return FORMATS.chat;
  if (path.endsWith("/responses")) return FORMATS.responses;
  if (path.endsWith("/messages")) return FORMATS.messages;
  if (path.endsWith("/embeddings")) return FORMATS.embeddings;
  return undefined;
}
