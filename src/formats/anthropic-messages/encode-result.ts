import type { EncodeContext } from "../../ir/codec";
import type { Settlement } from "../../ir/settlement";
import type { IRResult } from "../../ir/types";
import { withServiceMetadata } from "../service-metadata";
import { encodeContentBlock } from "./encode-blocks";
import { encodeStopReason } from "./finish-reason";
import type { MessagesResult } from "./schema";
import { encodeSettledUsage } from "./usage";

/** IR result -> non-streaming MessagesResult (OpenRouter's, for POST /messages). */
export function encodeResult(result: IRResult, ctx: EncodeContext, settlement: Settlement): MessagesResult {
  const stopReason = encodeStopReason(result.finishReason, result.stopSequence, result.nativeFinishReason);
  return {
    id: ctx.generationId,
    type: "message",
    role: "assistant",
    model: ctx.model,
    content: result.content.map(encodeContentBlock),
    stop_reason: stopReason,
    stop_sequence: stopReason === "stop_sequence" ? (result.stopSequence ?? null) : null,
    stop_details: null,
    container: null,
    usage: encodeSettledUsage(result.usage, settlement),
    ...withServiceMetadata(settlement),
  };
}
