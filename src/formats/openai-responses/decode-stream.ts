import type { SseEvent, UpstreamStreamDecoder } from "../../ir/codec";
import type { IRStreamBlock, IRStreamPart } from "../../ir/types";
import { reasoningTextOf } from "./decode-result";
import { statusForErrorCode } from "./errors";
import { finishReasonOf } from "./finish-reason";
import { decodeResponsesUsage } from "./usage";
import type { WireError, WireEvent, WireItem, WireResponse } from "./wire";

/**
 * Responses SSE (events keyed by their JSON `type`) → IR stream parts. Blocks follow the upstream's
 * own structure: a message's output_text / refusal part, a reasoning item, a function_call item.
 * A reasoning block opens on its first content (a summary part or reasoning_text part, which says
 * which kind it is) or at its item's done. Text that arrives only in a `.done` event (some
 * compatible servers skip deltas) is emitted as one delta, so nothing is lost.
 */

type Kind = IRStreamBlock["type"];
type OpenBlock = { index: number; kind: Kind; outputIndex: number; emitted: boolean };
type PendingReasoning = { outputIndex: number; id?: string };

export class ResponsesStreamDecoder implements UpstreamStreamDecoder {
  finished = false;
  private started = false;
  private nextIndex = 0;
  private open?: OpenBlock;
  private reasoning?: PendingReasoning;
  private sawToolCall = false;

  push(event: SseEvent): IRStreamPart[] {
    if (this.finished || event.data === "[DONE]") return [];
    let data: WireEvent;
    try {
      data = (event.json ?? JSON.parse(event.data)) as WireEvent;
    } catch {
      return [];
    }
    if (!data || typeof data !== "object") return [];
    const out: IRStreamPart[] = [];
    this.handle(String(data.type ?? event.event ?? ""), data, out);
    return out;
  }

  end(): IRStreamPart[] {
    if (this.finished) return [];
    const out: IRStreamPart[] = [];
    this.closeBlock(out);
    this.finished = true;
    out.push({ type: "error", status: 502, message: "Upstream stream ended before the response completed" });
    return out;
  }

  private handle(type: string, data: WireEvent, out: IRStreamPart[]): void {
    if (type === "error") return this.fail(data.error ?? data, undefined, out);
    if (!type.startsWith("response.")) return; // keepalive and future non-response events
    this.ensureStarted(type === "response.created" || type === "response.in_progress" ? data.response : undefined, out);
    const outputIndex = typeof data.output_index === "number" ? data.output_index : 0;
    switch (type) {
      case "response.output_item.added":
        return this.itemAdded(data.item ?? {}, outputIndex, out);
      case "response.output_item.done":
        return this.itemDone(data.item ?? {}, outputIndex, out);
      case "response.content_part.added": {
        const partType = data.part?.type;
        if (partType === "output_text") this.openBlock({ type: "text" }, outputIndex, out);
        else if (partType === "refusal") this.openBlock({ type: "refusal" }, outputIndex, out);
        else if (partType === "reasoning_text") this.openReasoning(false, outputIndex, out);
        return;
      }
      case "response.content_part.done":
        if (this.open?.kind === "text" || this.open?.kind === "refusal") this.closeBlock(out);
        return;
      case "response.output_text.delta":
        return this.delta("text", outputIndex, data.delta, out);
      case "response.output_text.done":
        return this.done("text", outputIndex, data.text, out);
      case "response.refusal.delta":
        return this.delta("refusal", outputIndex, data.delta, out);
      case "response.refusal.done":
        return this.done("refusal", outputIndex, data.refusal, out);
      case "response.reasoning_summary_part.added":
        this.openReasoning(true, outputIndex, out);
        // Several summary parts read as one text, separated like decode-result joins them.
        if (typeof data.summary_index === "number" && data.summary_index > 0 && this.open?.emitted) this.emit("\n\n", out);
        return;
      case "response.reasoning_summary_text.delta":
        this.openReasoning(true, outputIndex, out);
        return this.delta("reasoning", outputIndex, data.delta, out);
      case "response.reasoning_text.delta":
        this.openReasoning(false, outputIndex, out);
        return this.delta("reasoning", outputIndex, data.delta, out);
      case "response.reasoning_summary_text.done":
      case "response.reasoning_text.done":
        if (this.open?.kind === "reasoning" && !this.open.emitted) this.done("reasoning", outputIndex, data.text, out);
        return;
      case "response.function_call_arguments.delta":
        return this.delta("tool_call", outputIndex, data.delta, out);
      case "response.function_call_arguments.done":
        return this.done("tool_call", outputIndex, data.arguments, out);
      case "response.completed":
      case "response.incomplete":
        return this.complete(data.response ?? {}, out);
      case "response.failed":
        return this.fail(data.response?.error ?? {}, data.response?.error_type, out);
    }
  }

  private ensureStarted(response: WireResponse | null | undefined, out: IRStreamPart[]): void {
    if (this.started) return;
    this.started = true;
    out.push({ type: "start", id: String(response?.id ?? ""), model: String(response?.model ?? "") });
  }

  private itemAdded(item: WireItem, outputIndex: number, out: IRStreamPart[]): void {
    this.closeBlock(out);
    if (item.type === "reasoning") {
      this.reasoning = { outputIndex, id: typeof item.id === "string" ? item.id : undefined };
    } else if (item.type === "function_call") {
      this.sawToolCall = true;
      this.openBlock({ type: "tool_call", id: String(item.call_id ?? ""), name: String(item.name ?? "") }, outputIndex, out);
      if (typeof item.arguments === "string" && item.arguments !== "") this.emit(item.arguments, out);
    }
  }

  private itemDone(item: WireItem, outputIndex: number, out: IRStreamPart[]): void {
    if (item.type === "reasoning") {
      const { summary, text } = reasoningTextOf(item);
      this.openReasoning(summary, outputIndex, out);
      if (this.open && !this.open.emitted && text !== "") this.emit(text, out);
      if (this.open && typeof item.encrypted_content === "string" && item.encrypted_content !== "") {
        out.push({ type: "reasoning-encrypted", index: this.open.index, data: item.encrypted_content });
      }
    } else if (item.type === "function_call" && this.open?.kind === "tool_call" && !this.open.emitted) {
      if (typeof item.arguments === "string" && item.arguments !== "") this.emit(item.arguments, out);
    }
    this.closeBlock(out);
  }

  private openBlock(block: IRStreamBlock, outputIndex: number, out: IRStreamPart[]): void {
    this.closeBlock(out);
    const index = this.nextIndex++;
    this.open = { index, kind: block.type, outputIndex, emitted: false };
    out.push({ type: "block-start", index, block });
  }

  private openReasoning(summary: boolean, outputIndex: number, out: IRStreamPart[]): void {
    if (this.open?.kind === "reasoning" && this.open.outputIndex === outputIndex) return;
    const pending = this.reasoning?.outputIndex === outputIndex ? this.reasoning : undefined;
    this.reasoning = undefined;
    const block: IRStreamBlock = { type: "reasoning", origin: "openai-responses" };
    if (pending?.id !== undefined) block.id = pending.id;
    if (summary) block.summary = true;
    this.openBlock(block, outputIndex, out);
  }

  private emit(text: string, out: IRStreamPart[]): void {
    const open = this.open!;
    open.emitted = true;
    if (open.kind === "text") out.push({ type: "text-delta", index: open.index, text });
    else if (open.kind === "refusal") out.push({ type: "refusal-delta", index: open.index, text });
    else if (open.kind === "reasoning") out.push({ type: "reasoning-delta", index: open.index, text });
    else out.push({ type: "tool-args-delta", index: open.index, delta: text });
  }

  private delta(kind: Kind, outputIndex: number, text: unknown, out: IRStreamPart[]): void {
    if (typeof text !== "string" || text === "") return;
    // Text deltas without a content_part.added first: open the block they belong to.
    if ((kind === "text" || kind === "refusal") && (this.open?.kind !== kind || this.open.outputIndex !== outputIndex)) {
      this.openBlock({ type: kind }, outputIndex, out);
    }
    if (this.open?.kind !== kind || this.open.outputIndex !== outputIndex) return;
    this.emit(text, out);
  }

  private done(kind: Kind, outputIndex: number, text: unknown, out: IRStreamPart[]): void {
    if (this.open?.kind === kind && this.open.outputIndex === outputIndex && !this.open.emitted) {
      if (typeof text === "string" && text !== "") this.emit(text, out);
    } else if (!this.open && (kind === "text" || kind === "refusal") && typeof text === "string" && text !== "") {
      this.openBlock({ type: kind }, outputIndex, out);
      this.emit(text, out);
    }
    if (kind === "text" || kind === "refusal") this.closeBlock(out);
  }

  private closeBlock(out: IRStreamPart[]): void {
    if (!this.open) return;
    out.push({ type: "block-end", index: this.open.index });
    this.open = undefined;
  }

  private complete(response: WireResponse, out: IRStreamPart[]): void {
    this.closeBlock(out);
    this.finished = true;
    const reason = response.incomplete_details?.reason;
    out.push({
      type: "finish",
      finishReason: finishReasonOf(response.status ?? "completed", reason, this.sawToolCall),
      nativeFinishReason: typeof reason === "string" ? reason : typeof response.status === "string" ? response.status : null,
      usage: decodeResponsesUsage(response.usage),
    });
  }

  private fail(error: WireError, errorType: unknown, out: IRStreamPart[]): void {
    this.closeBlock(out);
    this.finished = true;
    const part: IRStreamPart = {
      type: "error",
      status: statusForErrorCode(error.code),
      message: typeof error.message === "string" && error.message !== "" ? error.message : "Upstream response failed",
    };
    if (typeof errorType === "string") part.errorType = errorType;
    out.push(part);
  }
}

export const createResponsesStreamDecoder = (): UpstreamStreamDecoder => new ResponsesStreamDecoder();
