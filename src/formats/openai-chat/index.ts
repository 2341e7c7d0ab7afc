import type { InboundCodec, UpstreamCodec } from "../../ir/codec";
import { decodeChatRequest } from "./decode-request";
import { chatErrorMessage, decodeChatResult } from "./decode-result";
import { createChatStreamDecoder } from "./decode-stream";
import { encodeChatRequest } from "./encode-request";
import { encodeChatResult } from "./encode-result";
import { createChatStreamEncoder } from "./encode-stream";
import type { ChatRequestBody } from "./schema";

/** OpenAI Chat Completions, as clients speak it to us. */
export const openaiChatInbound: InboundCodec<ChatRequestBody> = {
  decodeRequest: decodeChatRequest,
  encodeResult: encodeChatResult,
  createStreamEncoder: createChatStreamEncoder,
};

/** OpenAI Chat Completions, as we speak it to upstreams. */
export const openaiChatUpstream: UpstreamCodec = {
  path: "/chat/completions",
  encodeRequest: encodeChatRequest,
  decodeResult: decodeChatResult,
  createStreamDecoder: createChatStreamDecoder,
  errorMessage: chatErrorMessage,
};

export { ChatRequestSchema, type ChatRequestBody } from "./schema";
