// Picks the wire format from the request path and gathers each format's renderers.

import { checkBedrockAuth } from "./bedrock-auth.ts";
import { EVENT_STREAM_CONTENT_TYPE, encodeBedrockFrame } from "./bedrock-frames.ts";
import { renderAnthropicEvents, renderAnthropicJson, renderAnthropicStreamError } from "./render-anthropic.ts";
import { azureErrorBody, azureRefusal, renderAzureEvents, renderAzureJson } from "./render-azure.ts";
import { bedrockErrorBody, bedrockErrorType, renderBedrockEvents, renderBedrockJson, renderBedrockStreamError } from "./render-bedrock.ts";
import { renderChatEvents, renderChatJson, renderChatStreamError } from "./render-chat.ts";
import { renderEmbeddingsJson } from "./render-embeddings.ts";
import { anthropicErrorBody, openAiErrorBody } from "./render-error.ts";
import { googleErrorBody, renderGeminiEvents, renderGeminiJson, renderGeminiStreamError } from "./render-gemini.ts";
import { renderResponsesEvents, renderResponsesJson, renderResponsesStreamError } from "./render-responses.ts";
import type { MockTurn, RecordedRequest, RenderContext, SseEvent } from "./types.ts";

export type FormatName = "chat" | "responses" | "messages" | "embeddings" | "azure" | "azure-embeddings" | "bedrock" | "gemini";

export type Format = {
  name: FormatName;
  json(turn: MockTurn, ctx: RenderContext): unknown;
  /** null: the format has no streaming form. */
  events: ((turn: MockTurn, ctx: RenderContext) => SseEvent[]) | null;
  streamError(turn: MockTurn, ctx: RenderContext, afterEvents: number, message: string, type?: string): SseEvent[];
  errorBody(status: number, requestId: string): unknown;
  requestIdHeader: string;
  /** the API's own checks of a request before any turn is taken (Azure: api-version, api-key) */
  refuse?(rec: RecordedRequest): { status: number; body: unknown } | undefined;
  /** headers an error answer carries besides the request id (Bedrock's x-amzn-errortype) */
  errorHeaders?(status: number): Record<string, string>;
  /** whether the request asks for a stream: `body.stream` unless the format says it by path */
  streams?(path: string): boolean;
  /** a stream framed otherwise than as server-sent events */
  frame?: { contentType: string; encode(e: SseEvent): Uint8Array };
  /** the credential check before any turn is taken: a refusal, or undefined to go on */
  authorize?(request: Request, rawPath: string, body: Uint8Array): Promise<Response | undefined>;
  /** the model a request names, when its path names it rather than its body */
  modelOf?(path: string): string | undefined;
};

/** Bedrock's model id segment, URL-encoded: `/model/{modelId}/converse` or `/converse-stream`. */
const BEDROCK_PATH = /\/model\/([^/]+)\/(converse|converse-stream)$/;

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
  bedrock: {
    name: "bedrock",
    json: renderBedrockJson,
    events: renderBedrockEvents,
    streamError: (_t, _c, _n, message, type) => renderBedrockStreamError(message, type ?? "modelStreamErrorException"),
    errorBody: (status) => bedrockErrorBody(status),
    requestIdHeader: "x-amzn-requestid",
    errorHeaders: (status) => ({ "x-amzn-errortype": `${bedrockErrorType(status)}:http://internal.amazon.com/coral/com.amazon.bedrock/` }),
    streams: (path) => BEDROCK_PATH.exec(path)?.[2] === "converse-stream",
    frame: { contentType: EVENT_STREAM_CONTENT_TYPE, encode: encodeBedrockFrame },
    authorize: checkBedrockAuth,
    modelOf: (path) => {
      const segment = BEDROCK_PATH.exec(path)?.[1];
      return segment === undefined ? undefined : decodeURIComponent(segment);
    },
  },
  gemini: {
    name: "gemini",
    json: renderGeminiJson,
    events: renderGeminiEvents,
    streamError: (_t, _c, _n, message, type) => renderGeminiStreamError(message, type),
    errorBody: (status) => googleErrorBody(status),
    requestIdHeader: "x-goog-request-id",
    // Google puts the stream switch in the method: :streamGenerateContent?alt=sse
    streams: (path) => path.includes(":streamGenerateContent"),
  },
  embeddings: {
    name: "embeddings",
    json: renderEmbeddingsJson,
    events: null,
    streamError: () => [],
    errorBody: openAiError,
    requestIdHeader: "x-request-id",
  },
  azure: {
    name: "azure",
    json: renderAzureJson,
    events: renderAzureEvents,
    streamError: (_t, _c, _n, message, type) => renderChatStreamError(message, type ?? "server_error"),
    errorBody: azureErrorBody,
    requestIdHeader: "apim-request-id",
    refuse: azureRefusal,
  },
  "azure-embeddings": {
    name: "azure-embeddings",
    json: renderEmbeddingsJson,
    events: null,
    streamError: () => [],
    errorBody: azureErrorBody,
    requestIdHeader: "apim-request-id",
    refuse: azureRefusal,
  },
};

/** Azure OpenAI's deployments API: /openai/deployments/{deployment}/{operation} */
const AZURE_DEPLOYMENT = /\/openai\/deployments\/[^/]+\/(chat\/completions|embeddings)$/;

/** The model a path names (`…/models/{model}:{method}`: Gemini, and Vertex AI's publishers), when the body does not. */
export function modelInPath(path: string): string | undefined {
  return /\/models\/([^/:]+):/.exec(path)?.[1];
}

export function formatForPath(path: string): Format | undefined {
  const azure = AZURE_DEPLOYMENT.exec(path);
  if (azure) return azure[1] === "embeddings" ? FORMATS["azure-embeddings"] : FORMATS.azure;
  if (BEDROCK_PATH.test(path)) return FORMATS.bedrock;
  // Gemini API and Vertex AI's publishers/google; Vertex's publishers/anthropic take Messages bodies
  if (/:(stream)?[Gg]enerateContent$/.test(path)) return FORMATS.gemini;
  if (/:(stream)?[Rr]awPredict$/.test(path)) return FORMATS.messages;
  if (path.endsWith("/chat/completions")) return FORMATS.chat;
  if (path.endsWith("/responses")) return FORMATS.responses;
  if (path.endsWith("/messages")) return FORMATS.messages;
  if (path.endsWith("/embeddings")) return FORMATS.embeddings;
  return undefined;
}
