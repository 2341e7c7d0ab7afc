import type { InboundCodec, UpstreamCodec } from "../../ir/codec";
import { decodeRequest } from "./decode-request";
import { decodeResult } from "./decode-result";
import { createStreamDecoder } from "./decode-stream";
import { encodeRequest } from "./encode-request";
import { encodeResult } from "./encode-result";
import { createStreamEncoder } from "./encode-stream";
import { anthropicErrorMessage } from "./error-body";
import type { MessagesRequestBody } from "./schema";

/** Clients speaking the Anthropic Messages API to the gateway (POST /messages). */
export const anthropicInbound: InboundCodec<MessagesRequestBody> = {
  decodeRequest: (body, headers) => decodeRequest(body, headers),
  encodeResult,
  createStreamEncoder,
};

/** Upstreams that speak the Anthropic Messages API. */
export const anthropicUpstream: UpstreamCodec = {
  path: "/messages",
  encodeRequest,
  decodeResult,
  createStreamDecoder,
  errorMessage: anthropicErrorMessage,
};

export { anthropicErrorBody, errorTypeForStatus, type AnthropicErrorBody } from "./error-body";
export { MessagesRequestSchema, type MessagesRequestBody } from "./schema";
