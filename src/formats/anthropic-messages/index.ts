import type { InboundCodec, UpstreamCodec } from "../../ir/codec";
import { upstreamErrorMessage } from "../error-message";
import { unknownFieldsOf } from "../unknown-fields";
import { decodeRequest } from "./decode-request";
import { decodeResult } from "./decode-result";
import { createStreamDecoder } from "./decode-stream";
import { encodeRequest } from "./encode-request";
import { encodeResult } from "./encode-result";
import { createStreamEncoder } from "./encode-stream";
import { anthropicErrorBody, errorDetailsOf } from "./errors";
import { rewriteMessagesResult } from "./passthrough";
import { createMessagesPassthroughStream } from "./passthrough-stream";
import { messagesPreset } from "./preset";
import { type MessagesRequestBody, MessagesRequestSchema, type MessagesResult } from "./schema";

/** Clients speaking the Anthropic Messages API to the gateway (POST /messages). */
export const anthropicInbound: InboundCodec<MessagesRequestBody, MessagesResult> = {
  decodeRequest: (body, headers) => decodeRequest(body, headers),
  encodeResult,
  createStreamEncoder,
  passthrough: { rewriteResult: rewriteMessagesResult, createStreamWriter: createMessagesPassthroughStream },
  unknownFields: unknownFieldsOf(MessagesRequestSchema),
  // Anthropic's SDKs key error classes off `error.type`, and causes off `error.details.error_code`
  errorBody: (status, message, metadata) => anthropicErrorBody(status, message, undefined, errorDetailsOf(metadata)),
  // message_start carries input_tokens, and clients such as LangChain read them only there
  announcesPromptTokens: true,
  preset: messagesPreset,
};

/** Upstreams that speak the Anthropic Messages API. */
export const anthropicUpstream: UpstreamCodec = {
  encodeRequest,
  decodeResult,
  createStreamDecoder,
  errorMessage: upstreamErrorMessage,
};

export { type AnthropicErrorBody, anthropicErrorBody, errorTypeForStatus } from "./errors";
export { AnthropicErrorBodySchema, type MessagesRequestBody, MessagesRequestSchema, type MessagesResult, MessagesResultSchema } from "./schema";
