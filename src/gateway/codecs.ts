import type { InboundCodec, UpstreamCodec } from "../ir/codec";
import type { ApiKindName } from "../config-schema";
import { openaiChatInbound, openaiChatUpstream } from "../formats/openai-chat";
import { openaiResponsesInbound, openaiResponsesUpstream } from "../formats/openai-responses";
import { anthropicInbound, anthropicUpstream } from "../formats/anthropic-messages";

export type InboundFormat = ApiKindName;

export const inboundCodecs: Record<InboundFormat, InboundCodec<any>> = {
  "openai-chat": adapt(openaiChatInbound),
  "openai-responses": adapt(openaiResponsesInbound),
  "anthropic-messages": adapt(anthropicInbound),
};

export const upstreamCodecs: Record<ApiKindName, UpstreamCodec> = {
  "openai-chat": openaiChatUpstream,
  "openai-responses": openaiResponsesUpstream,
  "anthropic-messages": anthropicUpstream,
};

// TEMPORARY: adapts the format folders' previous encoder interface until they implement Settlement
import type { EncodeContext, InboundStreamEncoder } from "../ir/codec";
import type { Settlement } from "../ir/settlement";
function legacyUsage(usage: any, s: Settlement) {
  return { ...usage, cost: s.cost, isByok: s.isByok, costDetails: s.costDetails };
}
function adapt(codec: any): InboundCodec<any> {
  return {
    decodeRequest: codec.decodeRequest,
    encodeResult: (result, ctx, s) => codec.encodeResult({ ...result, usage: legacyUsage(result.usage, s) }, { ...ctx, serviceMetadata: s.serviceMetadata }),
    errorBody: (status, message, metadata) => ({ error: { code: status, message, metadata } }),
    createStreamEncoder(ctx: EncodeContext): InboundStreamEncoder {
      const c: any = { ...ctx };
      const enc = codec.createStreamEncoder(c);
      return {
        encode: (p) => enc.encode(p),
        finish: (p, s) => {
          c.serviceMetadata = s.serviceMetadata;
          return enc.encode({ ...p, usage: legacyUsage(p.usage, s) });
        },
      };
    },
  };
}
