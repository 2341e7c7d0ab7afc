import type { UpstreamCodec } from "../../ir/codec";
import { decodeResult } from "./decode-result";
import { createStreamDecoder } from "./decode-stream";
import { encodeRequest } from "./encode-request";
import { errorMessage } from "./errors";

/**
 * Amazon Bedrock's Converse API, an upstream only (no client speaks it to the gateway): the
 * bodies. The URL, SigV4 or API-key authorization and the binary stream framing are the API's
 * (src/providers/apis/bedrock.ts).
 */
export const bedrockConverseUpstream: UpstreamCodec = {
  encodeRequest,
  decodeResult,
  createStreamDecoder,
  errorMessage,
};

export { type FrameHeaders, streamEventOf } from "./stream-events";
