import type { EncodeContext } from "../../ir/codec";
import type { Settlement } from "../../ir/settlement";
import type { IRResult } from "../../ir/types";
import { encodeContentBlock } from "./encode-blocks";
import { encodeStopReason } from "./finish-reason";
import { encodeUsage } from "./usage";

/** IR result -> non-streaming MessagesResult (contract §3.12). */
export function encodeResult(result: IRResult, ctx: EncodeContext, settlement: Settlement): Record<string, unknown> {
  const stopReason = encodeStopReason(result.finishReason, result.stopSequence, result.nativeFinishReason);
  const body: Record<string, unknown> = {
    id: ctx.generationId,
    type: "message",
    role: "assistant",
    model: ctx.model,
    content: result.content.map(encodeContentBlock),
    stop_reason: stopReason,
    stop_sequence: stopReason === "stop_sequence" ? (result.stopSequence ?? null) : null,
    stop_details: null,
    container: null,
    usage: encodeUsage(result.usage, settlement),
  };
  if (settlement.serviceMetadata) body.service_metadata = settlement.serviceMetadata;
  return body;
}
