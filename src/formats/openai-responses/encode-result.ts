import type { EncodeContext } from "../../ir/codec";
import type { Settlement } from "../../ir/settlement";
import type { IRFinishReason, IRResult, IRUsage } from "../../ir/types";
import { serviceMetadataOf } from "../service-metadata";
import { statusForFinish } from "./finish-reason";
import {
  derivedItemId,
  functionCallItem,
  type MessageContent,
  messageItem,
  type OutputItem,
  outputText,
  type ReasoningShape,
  reasoningItem,
  reasoningItemId,
  reasoningShapeOf,
  refusal,
} from "./output-items";
import { type EnvelopeState, responseEnvelope } from "./response-envelope";
import type { ResponsesResult } from "./schema";
import { encodeResponsesUsage } from "./usage";

/** IR parts → output items; consecutive text and refusal parts share one assistant message, as OpenAI emits them. */
export function encodeOutput(result: IRResult, generationId: string, shape: ReasoningShape): OutputItem[] {
  const output: OutputItem[] = [];
  let message: MessageContent[] | undefined;
  const closeMessage = () => {
    if (!message) return;
    output.push(messageItem(derivedItemId("msg", generationId, output.length), message, "completed"));
    message = undefined;
  };
  for (const part of result.content) {
    if (part.type === "text" || part.type === "refusal") {
      message ??= [];
      message.push(part.type === "text" ? outputText(part.text) : refusal(part.refusal));
      continue;
    }
    closeMessage();
    const index = output.length;
    if (part.type === "reasoning") {
      const { type: _type, ...reasoning } = part;
      output.push(reasoningItem(reasoningItemId(reasoning, generationId, index), reasoning, shape));
    } else {
      const id = derivedItemId("fc", generationId, index);
      output.push(functionCallItem(id, part.id, part.name, part.arguments, "completed"));
    }
  }
  closeMessage();
  return output;
}

/** A finished answer's envelope state: status by its finish reason, the usage and metadata the gateway settled. */
export function settledState(finishReason: IRFinishReason, output: OutputItem[], usage: IRUsage, settlement: Settlement): EnvelopeState {
  const settled = { output, usage: encodeResponsesUsage(usage, settlement), serviceMetadata: serviceMetadataOf(settlement) };
  if (finishReason === "error") {
    return {
      status: "failed",
      ...settled,
      error: { code: "server_error", message: "The upstream model stopped with an error", errorType: "server" },
    };
  }
  return { ...statusForFinish(finishReason), ...settled };
}

export function encodeResponsesResult(result: IRResult, ctx: EncodeContext, settlement: Settlement): ResponsesResult {
  return responseEnvelope(
    ctx,
    settledState(result.finishReason, encodeOutput(result, ctx.generationId, reasoningShapeOf(ctx.request)), result.usage, settlement),
  );
}
