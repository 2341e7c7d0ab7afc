import type { InboundCodec, UpstreamCodec } from "../../ir/codec";
import { upstreamErrorMessage } from "../error-message";
import { unknownFieldsOf } from "../unknown-fields";
import { decodeChatRequest } from "./decode-request";
import { decodeChatResult } from "./decode-result";
import { createChatStreamDecoder } from "./decode-stream";
import { encodeChatRequest } from "./encode-request";
import { encodeChatResult } from "./encode-result";
import { createChatStreamEncoder } from "./encode-stream";
import { chatErrorBody } from "./errors";
import { rewriteChatResult } from "./passthrough";
import { createChatPassthroughStream } from "./passthrough-stream";
import { chatPreset } from "./preset";
import { type ChatRequestBody, ChatRequestSchema, type ChatResult } from "./schema";

/** OpenAI Chat Completions, as clients speak it to us. */
export const openaiChatInbound: InboundCodec<ChatRequestBody, ChatResult> = {
  decodeRequest: decodeChatRequest,
  encodeResult: encodeChatResult,
  createStreamEncoder: createChatStreamEncoder,
  passthrough: { rewriteResult: rewriteChatResult, createStreamWriter: createChatPassthroughStream },
  unknownFields: unknownFieldsOf(ChatRequestSchema),
  errorBody: chatErrorBody,
  preset: chatPreset,
};

/** OpenAI Chat Completions, as we speak it to upstreams. */
export const openaiChatUpstream: UpstreamCodec = {
  encodeRequest: encodeChatRequest,
  decodeResult: decodeChatResult,
  createStreamDecoder: createChatStreamDecoder,
  errorMessage: upstreamErrorMessage,
};

export { type ChatRequestBody, ChatRequestSchema, type ChatResult, ChatResultSchema } from "./schema";
