import type { UpstreamCodec } from "../../ir/codec";
import { anthropicUpstream } from "./index";

/** The Messages API version Vertex AI's Claude models take in the body (https://docs.anthropic.com/en/api/claude-on-vertex-ai). */
export const VERTEX_ANTHROPIC_VERSION = "vertex-2023-10-16";

/**
 * Claude on Vertex AI: Anthropic's Messages bodies, with the model named in the URL instead
 * (rawPredict / streamRawPredict) and the API version in the body instead of a header.
 */
export const anthropicOnVertexUpstream: UpstreamCodec = {
  ...anthropicUpstream,
  encodeRequest(req, upstreamModel) {
    const { model: _model, ...body } = anthropicUpstream.encodeRequest(req, upstreamModel);
    return { anthropic_version: VERTEX_ANTHROPIC_VERSION, ...body };
  },
};
