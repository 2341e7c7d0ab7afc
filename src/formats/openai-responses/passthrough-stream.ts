import type { EncodeContext, IRErrorPart, SseEvent, StreamWriter } from "../../ir/codec";
import type { Settlement } from "../../ir/settlement";
import type { IRFinishPart, IRStreamPart } from "../../ir/types";
import { apiErrorType } from "../api-error-type";
import { eventObject, isJsonObject, type JsonObject } from "../json-object";
import { sseFrame } from "../sse-frame";
import { settledState } from "./encode-result";
import { responsesErrorCode } from "./errors";
import { type OutputItem, type ReasoningShape, reasoningShapeOf } from "./output-items";
import { OutputItemIds, rewriteOutput, settledResponse } from "./passthrough";
import { inRequestShape, ReasoningEventShaper } from "./passthrough-reasoning";

/**
 * Same-format Responses stream: every upstream event goes out as it arrives, with the gateway's
 * sequence numbers (its own events come after the upstream's) and this answer's item ids;
 * response envelopes are laid over as `passthrough.ts` describes. The event that ends the
 * response (response.completed or .incomplete) is held back until the generation is recorded,
 * then written with the usage the gateway charged.
 */
class ResponsesPassthroughStream implements StreamWriter {
  private sequence = 0;
  private done = false;
  private held: JsonObject[] = [];
  /** the upstream's latest response envelope */
  private response: JsonObject = {};
  private readonly ids: OutputItemIds;
  /** the latest snapshot of each output item, by output index, for a response that fails */
  private readonly items = new Map<number, JsonObject>();
  private readonly shape: ReasoningShape;
  private readonly reasoning: ReasoningEventShaper;

  constructor(private readonly ctx: EncodeContext) {
    this.ids = new OutputItemIds(ctx.generationId);
    this.shape = reasoningShapeOf(ctx.request);
    this.reasoning = new ReasoningEventShaper(this.shape);
  }

  write(event: SseEvent | null, parts: readonly IRStreamPart[]): string {
    if (this.done || event === null) return "";
    const data = eventObject(event);
    // response.failed and error events are written by error
    if (!data || parts.some((part) => part.type === "error")) return "";
    if (isJsonObject(data.response)) this.response = data.response;
    if (this.held.length > 0 || parts.some((part) => part.type === "finish")) {
      this.held.push(data);
      return "";
    }
    const named = typeof data.type === "string" || event.event === undefined ? data : { ...data, type: event.event };
    return this.reasoning
      .events(named)
      .map((out) => this.emit(this.rewrite(out)))
      .join("");
  }

  finish(part: IRFinishPart, settlement: Settlement): string {
    if (this.done) return "";
    this.done = true;
    const terminal = this.held.find((data) => isJsonObject(data.response));
    const response = this.finalResponse(isJsonObject(terminal?.response) ? terminal.response : this.response, part, settlement);
    const type = response.status === "failed" ? "response.failed" : (terminal?.type ?? `response.${String(response.status)}`);
    const last = { ...terminal, type, response };
    const held = this.held.map((data) => this.emit(data === terminal ? last : this.rewrite(data))).join("");
    return terminal ? held : held + this.emit(last);
  }

  error(part: IRErrorPart): string {
    if (this.done) return "";
    this.done = true;
    const output = [...this.items.entries()].sort(([a], [b]) => a - b).map(([, item]) => item) as OutputItem[];
    const error = { code: responsesErrorCode(part.status), message: part.message, errorType: part.errorType ?? apiErrorType(part.status) };
    return this.emit({ type: "response.failed", response: settledResponse(this.response, this.ctx, { status: "failed", output, error }) });
  }

  /**
   * The final client-facing response of a completed stream. Its output is the upstream's final
   * list, or the items streamed when the upstream's final event carries none.
   */
  private finalResponse(upstream: JsonObject, part: IRFinishPart, settlement: Settlement): JsonObject {
    const final = rewriteOutput(upstream.output, this.ids, this.shape);
    const output = final.length > 0 ? final : ([...this.items.entries()].sort(([a], [b]) => a - b).map(([, item]) => item) as OutputItem[]);
    return settledResponse(upstream, this.ctx, settledState(part.finishReason, output, part.usage, settlement));
  }

  private rewrite(data: JsonObject): JsonObject {
    let out = data;
    if (isJsonObject(data.item)) {
      const outputIndex = typeof data.output_index === "number" ? data.output_index : this.items.size;
      const item = inRequestShape(this.ids.rewrite(data.item, outputIndex), this.shape);
      this.items.set(outputIndex, item);
      out = { ...out, item };
    }
    if (typeof data.item_id === "string") out = { ...out, item_id: this.ids.clientId(data.item_id, data.output_index) };
    // OpenRouter's clients require the call's name on its arguments' done event; OpenAI leaves it out
    if (data.type === "response.function_call_arguments.done" && data.name === undefined && typeof data.output_index === "number") {
      const name = this.items.get(data.output_index)?.name;
      if (typeof name === "string") out = { ...out, name };
    }
    if (isJsonObject(data.response)) {
      out = {
        ...out,
        response: settledResponse(data.response, this.ctx, { status: "in_progress", output: rewriteOutput(data.response.output, this.ids, this.shape) }),
      };
    }
    return out;
  }

  private emit(data: JsonObject): string {
    const type = typeof data.type === "string" ? data.type : undefined;
    return sseFrame(JSON.stringify({ ...data, sequence_number: this.sequence++ }), type);
  }
}

export const createResponsesPassthroughStream = (ctx: EncodeContext): StreamWriter => new ResponsesPassthroughStream(ctx);
