import type { InboundCodec, UpstreamCodec } from "../../ir/codec";
import { decodeResponsesRequest } from "./decode-request";
import { decodeResponsesResult } from "./decode-result";
import { createResponsesStreamDecoder } from "./decode-stream";
import { encodeResponsesRequest } from "./encode-request";
import { encodeResponsesResult } from "./encode-result";
import { createResponsesStreamEncoder } from "./encode-stream";
import type { ResponsesRequestBody } from "./schema";

export { ResponsesRequestSchema, type ResponsesRequestBody } from "./schema";

/** What clients calling `POST /responses` speak. */
export const openaiResponsesInbound: InboundCodec<ResponsesRequestBody> = {
  decodeRequest: decodeResponsesRequest,
  encodeResult: encodeResponsesResult,
  createStreamEncoder: createResponsesStreamEncoder,
};

function errorMessage(body: unknown): string | undefined {
  if (!body || typeof body !== "object") return undefined;
  const error = (body as { error?: unknown }).error;
  if (typeof error === "string") return error;
  if (error && typeof error === "object") {
    const message = (error as { message?: unknown }).message;
    if (typeof message === "string") return message;
  }
  const message = (body as { message?: unknown }).message;
  return typeof message === "string" ? message : undefined;
}

/** What the gateway speaks to OpenAI-compatible Responses upstreams. */
export const openaiResponsesUpstream: UpstreamCodec = {
  path: "/responses",
  encodeRequest: encodeResponsesRequest,
  decodeResult: decodeResponsesResult,
  createStreamDecoder: createResponsesStreamDecoder,
  errorMessage,
};
