import type { EncodeContext, InboundStreamEncoder } from "../../ir/codec";
import type { Settlement } from "../../ir/settlement";
import type { IRFinishPart, IRStreamBlock, IRStreamPart } from "../../ir/types";
import { apiErrorType } from "../api-error-type";
import { type ServiceMetadata, serviceMetadataOf } from "../service-metadata";
import { responsesErrorCode } from "./errors";
import { statusForFinish } from "./finish-reason";
import { derivedItemId, functionCallItem, type MessageContent, messageItem, type OutputItem, outputText, reasoningShapeOf, refusal } from "./output-items";
import { type EnvelopeState, responseEnvelope } from "./response-envelope";
import { ReasoningItemStream } from "./stream-reasoning";
import { encodeResponsesUsage } from "./usage";

/**
 * IR stream parts → Responses SSE (OpenRouter's Responses StreamEvents). The openai SDK's ResponseStream checks that
 * every item event names an item already added at that output_index with that id, and that
 * content/summary indexes append in order; this encoder keeps that bookkeeping.
 */

type OpenMessage = { outputIndex: number; id: string; content: MessageContent[] };
type OpenPart = { irIndex: number; kind: "text" | "refusal"; contentIndex: number; text: string };
type OpenCall = { irIndex: number; outputIndex: number; id: string; callId: string; name: string; args: string };
type OpenReasoning = { irIndex: number; stream: ReasoningItemStream };

export class ResponsesStreamEncoder implements InboundStreamEncoder {
  private sequence = 0;
  private started = false;
  private ended = false;
  private readonly output: OutputItem[] = [];
  private message?: OpenMessage;
  private part?: OpenPart;
  private call?: OpenCall;
  private reasoning?: OpenReasoning;

  constructor(private readonly ctx: EncodeContext) {}

  encode(part: Exclude<IRStreamPart, IRFinishPart>): string {
    if (this.ended) return "";
    let sse = this.started ? "" : this.start();
    switch (part.type) {
      case "start":
      case "usage":
        break;
      case "block-start":
        sse += this.openBlock(part.index, part.block);
        break;
      case "text-delta":
      case "refusal-delta":
        sse += this.contentDelta(part.index, part.text);
        break;
      case "reasoning-delta":
        if (this.reasoning?.irIndex === part.index) sse += this.reasoning.stream.delta(part.text);
        break;
      case "reasoning-signature":
        if (this.reasoning?.irIndex === part.index) this.reasoning.stream.addSignature(part.signature);
        break;
      case "reasoning-encrypted":
        if (this.reasoning?.irIndex === part.index) this.reasoning.stream.setEncrypted(part.data);
        break;
      case "tool-args-delta":
        sse += this.argumentsDelta(part.index, part.delta);
        break;
      case "block-end":
        sse += this.closeBlock(part.index);
        break;
      case "error":
        sse += this.fail(part.status, part.message, part.errorType);
        break;
    }
    return sse;
  }

  finish(part: IRFinishPart, settlement: Settlement): string {
    if (this.ended) return "";
    const sse = (this.started ? "" : this.start()) + this.closeItem() + this.closeMessage();
    const serviceMetadata = serviceMetadataOf(settlement);
    if (part.finishReason === "error") return sse + this.fail(502, "The upstream model stopped with an error", undefined, serviceMetadata);
    this.ended = true;
    const usage = encodeResponsesUsage(part.usage, settlement);
    const state: EnvelopeState = { ...statusForFinish(part.finishReason), output: this.output, usage, serviceMetadata };
    const type = state.status === "incomplete" ? "response.incomplete" : "response.completed";
    return sse + this.event(type, { response: responseEnvelope(this.ctx, state) });
  }

  private event(type: string, payload: Record<string, unknown>): string {
    const data = { type, sequence_number: this.sequence++, ...payload };
    return `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
  }

  private start(): string {
    this.started = true;
    const response = responseEnvelope(this.ctx, { status: "in_progress", output: [] });
    return this.event("response.created", { response }) + this.event("response.in_progress", { response });
  }

  private openBlock(irIndex: number, block: IRStreamBlock): string {
    if (block.type === "text" || block.type === "refusal") {
      let sse = this.closeItem() + this.closePart();
      if (!this.message) {
        const outputIndex = this.output.length;
        this.message = { outputIndex, id: derivedItemId("msg", this.ctx.generationId, outputIndex), content: [] };
        const item = messageItem(this.message.id, [], "in_progress");
        sse += this.event("response.output_item.added", { output_index: outputIndex, item });
      }
      const contentIndex = this.message.content.length;
      const empty = block.type === "text" ? outputText("") : refusal("");
      this.message.content.push(empty);
      this.part = { irIndex, kind: block.type, contentIndex, text: "" };
      return sse + this.event("response.content_part.added", { ...this.partRoute(), part: empty });
    }
    const sse = this.closeItem() + this.closeMessage();
    const outputIndex = this.output.length;
    if (block.type === "tool_call") {
      const id = derivedItemId("fc", this.ctx.generationId, outputIndex);
      this.call = { irIndex, outputIndex, id, callId: block.id, name: block.name, args: "" };
      const item = functionCallItem(id, block.id, block.name, "", "in_progress");
      return sse + this.event("response.output_item.added", { output_index: outputIndex, item });
    }
    const { type: _type, ...data } = block;
    const shape = reasoningShapeOf(this.ctx.request);
    const stream = new ReasoningItemStream({ text: "", ...data }, this.ctx.generationId, outputIndex, shape, (type, payload) => this.event(type, payload));
    this.reasoning = { irIndex, stream };
    return sse + stream.added();
  }

  private partRoute(): Record<string, unknown> {
    return { item_id: this.message!.id, output_index: this.message!.outputIndex, content_index: this.part!.contentIndex };
  }

  private contentDelta(irIndex: number, delta: string): string {
    if (this.part?.irIndex !== irIndex || delta === "") return "";
    this.part.text += delta;
    if (this.part.kind === "text") return this.event("response.output_text.delta", { ...this.partRoute(), delta, logprobs: [] });
    return this.event("response.refusal.delta", { ...this.partRoute(), delta });
  }

  private argumentsDelta(irIndex: number, delta: string): string {
    if (this.call?.irIndex !== irIndex || delta === "") return "";
    this.call.args += delta;
    return this.event("response.function_call_arguments.delta", {
      item_id: this.call.id,
      output_index: this.call.outputIndex,
      delta,
    });
  }

  private closeBlock(irIndex: number): string {
    if (this.part?.irIndex === irIndex) return this.closePart();
    if (this.call?.irIndex === irIndex || this.reasoning?.irIndex === irIndex) return this.closeItem();
    return "";
  }

  /** Ends a content part but leaves its message open: the next text or refusal block joins it. */
  private closePart(): string {
    const part = this.part;
    if (!part || !this.message) return "";
    const route = this.partRoute();
    this.part = undefined;
    const final = part.kind === "text" ? outputText(part.text) : refusal(part.text);
    this.message.content[part.contentIndex] = final;
    const done =
      part.kind === "text"
        ? this.event("response.output_text.done", { ...route, text: part.text, logprobs: [] })
        : this.event("response.refusal.done", { ...route, refusal: part.text });
    return done + this.event("response.content_part.done", { ...route, part: final });
  }

  private closeMessage(): string {
    const sse = this.closePart();
    const message = this.message;
    if (!message) return sse;
    this.message = undefined;
    const item = messageItem(message.id, message.content, "completed");
    this.output.push(item);
    return sse + this.event("response.output_item.done", { output_index: message.outputIndex, item });
  }

  /** Closes an open function call or reasoning item. */
  private closeItem(): string {
    if (this.reasoning) {
      const { sse, item } = this.reasoning.stream.done();
      this.reasoning = undefined;
      this.output.push(item);
      return sse;
    }
    const call = this.call;
    if (!call) return "";
    this.call = undefined;
    const route = { item_id: call.id, output_index: call.outputIndex };
    const item = functionCallItem(call.id, call.callId, call.name, call.args, "completed");
    this.output.push(item);
    return (
      this.event("response.function_call_arguments.done", { ...route, name: call.name, arguments: call.args }) +
      this.event("response.output_item.done", { output_index: call.outputIndex, item })
    );
  }

  /** Whatever was produced so far stays in the failed response, open items as in_progress snapshots. */
  private fail(status: number, message: string, errorType?: string, serviceMetadata?: ServiceMetadata): string {
    this.ended = true;
    const output = [...this.output];
    if (this.message) output.push(messageItem(this.message.id, this.partialContent(this.message), "in_progress"));
    if (this.call) {
      output.push(functionCallItem(this.call.id, this.call.callId, this.call.name, this.call.args, "in_progress"));
    }
    if (this.reasoning) output.push(this.reasoning.stream.snapshot());
    const error = { code: responsesErrorCode(status), message, errorType: errorType ?? apiErrorType(status) };
    return this.event("response.failed", { response: responseEnvelope(this.ctx, { status: "failed", output, error, serviceMetadata }) });
  }

  private partialContent(message: OpenMessage): MessageContent[] {
    const part = this.part;
    if (!part) return message.content;
    const content = [...message.content];
    content[part.contentIndex] = part.kind === "text" ? outputText(part.text) : refusal(part.text);
    return content;
  }
}

export const createResponsesStreamEncoder = (ctx: EncodeContext): InboundStreamEncoder => new ResponsesStreamEncoder(ctx);
