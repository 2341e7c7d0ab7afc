import type { InboundCodec, UpstreamCodec } from "../../ir/codec";
import { upstreamErrorMessage } from "../error-message";
import { unknownFieldsOf } from "../unknown-fields";
import { decodeResponsesRequest } from "./decode-request";
import { decodeResponsesResult } from "./decode-result";
import { createResponsesStreamDecoder } from "./decode-stream";
import { encodeResponsesRequest } from "./encode-request";
import { encodeResponsesResult } from "./encode-result";
import { createResponsesStreamEncoder } from "./encode-stream";
import { responsesErrorBody } from "./errors";
import { rewriteResponsesResult } from "./passthrough";
import { createResponsesPassthroughStream } from "./passthrough-stream";
import { responsesPreset } from "./preset";
import { type ResponsesRequestBody, ResponsesRequestSchema, type ResponsesResult } from "./schema";

/** What clients calling `POST /responses` speak. */
export const openaiResponsesInbound: InboundCodec<ResponsesRequestBody, ResponsesResult> = {
  decodeRequest: decodeResponsesRequest,
  encodeResult: encodeResponsesResult,
  createStreamEncoder: createResponsesStreamEncoder,
  passthrough: { rewriteResult: rewriteResponsesResult, createStreamWriter: createResponsesPassthroughStream },
  unknownFields: unknownFieldsOf(ResponsesRequestSchema),
  errorBody: responsesErrorBody,
  preset: responsesPreset,
  refersToStoredItems: true,
};

/** What the gateway speaks to OpenAI-compatible Responses upstreams. */
export const openaiResponsesUpstream: UpstreamCodec = {
  encodeRequest: encodeResponsesRequest,
  decodeResult: decodeResponsesResult,
  createStreamDecoder: createResponsesStreamDecoder,
  errorMessage: upstreamErrorMessage,
};

export { type ResponsesRequestBody, ResponsesRequestSchema, type ResponsesResult, ResponsesResultSchema } from "./schema";
