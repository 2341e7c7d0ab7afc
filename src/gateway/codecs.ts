import type { InboundCodec, UpstreamCodec } from "../ir/codec";
import type { ApiKindName } from "../config-schema";
import { openaiChatInbound, openaiChatUpstream } from "../formats/openai-chat";
import { openaiResponsesInbound, openaiResponsesUpstream } from "../formats/openai-responses";
import { anthropicInbound, anthropicUpstream } from "../formats/anthropic-messages";

export type InboundFormat = ApiKindName;

export const inboundCodecs: Record<InboundFormat, InboundCodec<any>> = {
  "openai-chat": openaiChatInbound,
  "openai-responses": openaiResponsesInbound,
  "anthropic-messages": anthropicInbound,
};

export const upstreamCodecs: Record<ApiKindName, UpstreamCodec> = {
  "openai-chat": openaiChatUpstream,
  "openai-responses": openaiResponsesUpstream,
  "anthropic-messages": anthropicUpstream,
};
