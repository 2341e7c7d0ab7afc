import type { UpstreamCodec } from "../../ir/codec";
import { decodeResult } from "./decode-result";
import { createStreamDecoder } from "./decode-stream";
import { encodeRequest } from "./encode-request";
import { errorMessage } from "./errors";

/**
 * Google's generateContent bodies, as the Gemini API (AI Studio) and Vertex AI's Gemini models
 * speak them. Upstream only: no client speaks this format to the gateway.
 */
export const geminiUpstream: UpstreamCodec = {
  encodeRequest,
  decodeResult,
  createStreamDecoder,
  errorMessage,
};

export { errorReasons } from "./errors";
