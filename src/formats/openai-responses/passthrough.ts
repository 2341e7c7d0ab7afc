import type { EncodeContext } from "../../ir/codec";
import type { Settlement } from "../../ir/settlement";
import type { IRResult } from "../../ir/types";
import { isJsonObject, type JsonObject } from "../json-object";
import { settledState } from "./encode-result";
import { derivedItemId, type OutputItem, type ReasoningShape, reasoningShapeOf } from "./output-items";
import { inRequestShape } from "./passthrough-reasoning";
import { type EnvelopeState, responseEnvelope } from "./response-envelope";

/**
 * Same format in and out (a Responses client, an openai-responses upstream): the upstream's output
 * items reach the client as it sent them (item types and fields the gateway does not know
 * included; reasoning in the shape the request asked for, see passthrough-reasoning.ts). The gateway lays its own envelope over the upstream's response
 * (id, model, status, the request as the client sent it, usage with what it charged, output_text)
 * and gives each output item an id of this answer's own.
 */

const ID_PREFIX: Record<string, string> = { message: "msg", function_call: "fc", reasoning: "rs" };

/** Output item ids as the client sees them: unique to the answer, so that an id names one item. */
export class OutputItemIds {
  private readonly byUpstream = new Map<string, string>();
  private readonly byIndex = new Map<number, string>();
  private readonly used = new Set<string>();

  constructor(private readonly generationId: string) {}

  /** the item under its client id; the item at one output index keeps one id across events */
  rewrite(item: JsonObject, outputIndex: number): JsonObject {
    const id = this.byIndex.get(outputIndex) ?? this.assign(item, outputIndex);
    return item.id === id ? item : { ...item, id };
  }

  /** the client id of an item already seen, by its output index, else by the upstream's id */
  clientId(upstreamId: string, outputIndex: unknown): string {
    return (typeof outputIndex === "number" ? this.byIndex.get(outputIndex) : undefined) ?? this.byUpstream.get(upstreamId) ?? upstreamId;
  }

  private assign(item: JsonObject, outputIndex: number): string {
    const upstreamId = typeof item.id === "string" && item.id !== "" ? item.id : undefined;
    // a reasoning item keeps the upstream's id, as reasoningItemId does: sent back, the upstream looks it up by that id
    const keep = item.type === "reasoning" && upstreamId !== undefined && !this.used.has(upstreamId);
    const type = typeof item.type === "string" ? item.type : "item";
    const id = keep ? upstreamId : derivedItemId(ID_PREFIX[type] ?? type, this.generationId, outputIndex);
    if (upstreamId !== undefined) this.byUpstream.set(upstreamId, id);
    this.byIndex.set(outputIndex, id);
    this.used.add(id);
    return id;
  }
}

/** An upstream output list under this answer's item ids, reasoning in the request's shape. */
export function rewriteOutput(output: unknown, ids: OutputItemIds, shape: ReasoningShape): OutputItem[] {
  if (!Array.isArray(output)) return [];
  return output.map((item, i) => (isJsonObject(item) ? inRequestShape(ids.rewrite(item, i), shape) : item)) as OutputItem[];
}

/**
 * The client-facing response: the upstream's response with the gateway's envelope laid over it.
 * Every passthrough response object (JSON body, streamed envelopes, the final one) is built here.
 */
export function settledResponse(upstream: JsonObject, ctx: EncodeContext, state: EnvelopeState): JsonObject {
  const envelope = responseEnvelope(ctx, state);
  // the upstream's own figure is what it used; the envelope's echoes the request
  const topLogprobs = typeof upstream.top_logprobs === "number" ? upstream.top_logprobs : envelope.top_logprobs;
  return { ...upstream, ...envelope, top_logprobs: topLogprobs };
}

export function rewriteResponsesResult(raw: JsonObject, result: IRResult, ctx: EncodeContext, settlement: Settlement): JsonObject {
  const output = rewriteOutput(raw.output, new OutputItemIds(ctx.generationId), reasoningShapeOf(ctx.request));
  return settledResponse(raw, ctx, settledState(result.finishReason, output, result.usage, settlement));
}
