import type { InboundCodec } from "../ir/codec";
import type { InboundFormatName } from "../config-schema";
import { openaiChatInbound } from "../formats/openai-chat";
import { openaiResponsesInbound } from "../formats/openai-responses";
import { anthropicInbound } from "../formats/anthropic-messages";

export type InboundFormat = InboundFormatName;

export const inboundCodecs: Record<InboundFormat, InboundCodec<any>> = {
  "openai-chat": openaiChatInbound,
  "openai-responses": openaiResponsesInbound,
  "anthropic-messages": anthropicInbound,
};
