import type { InboundCodec, UpstreamCodec } from "../../ir/codec";
import { upstreamErrorMessage } from "../error-message";
import { decodeRequest } from "./decode-request";
import { decodeResult } from "./decode-result";
import { createStreamDecoder } from "./decode-stream";
import { encodeRequest } from "./encode-request";
import { encodeResult } from "./encode-result";
import { createStreamEncoder } from "./encode-stream";
import { anthropicErrorBody } from "./errors";
import { rewriteMessagesResult } from "./passthrough";
import { createMessagesPassthroughStream } from "./passthrough-stream";
import type { MessagesRequestBody, MessagesResult } from "./schema";

/** Clients speaking the Anthropic Messages API to the gateway (POST /messages). */
export const anthropicInbound: InboundCodec<MessagesRequestBody, MessagesResult> = {
  decodeRequest: (body, headers) => decodeRequest(body, headers),
  encodeResult,
  createStreamEncoder,
  passthrough: { rewriteResult: rewriteMessagesResult, createStreamWriter: createMessagesPassthroughStream },
  // Anthropic's body has no room for metadata; its SDKs key error classes off `error.type` alone.
  errorBody: (status, message) => anthropicErrorBody(status, message),
};

/** Upstreams that speak the Anthropic Messages API. */
export const anthropicUpstream: UpstreamCodec = {
  path: "/messages",
  encodeRequest,
  decodeResult,
  createStreamDecoder,
  errorMessage: upstreamErrorMessage,
};

export { anthropicErrorBody, errorTypeForStatus, type AnthropicErrorBody } from "./errors";
export { AnthropicErrorBodySchema, MessagesRequestSchema, MessagesResultSchema, type MessagesRequestBody, type MessagesResult } from "./schema";
