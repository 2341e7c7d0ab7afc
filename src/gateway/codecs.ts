import type { InboundFormatName } from "../config-schema";
import { anthropicInbound } from "../formats/anthropic-messages";
import { openaiChatInbound } from "../formats/openai-chat";
import { openaiResponsesInbound } from "../formats/openai-responses";
import type { InboundCodec } from "../ir/codec";

export type InboundFormat = InboundFormatName;

// biome-ignore lint/suspicious/noExplicitAny: one table of codecs whose body types differ; each route validates its own body first
export const inboundCodecs: Record<InboundFormat, InboundCodec<any>> = {
  "openai-chat": openaiChatInbound,
  "openai-responses": openaiResponsesInbound,
  "anthropic-messages": anthropicInbound,
};
