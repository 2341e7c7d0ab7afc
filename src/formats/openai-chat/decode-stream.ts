import type { SseEvent, UpstreamStreamDecoder } from "../../ir/codec";
import { emptyUsage, type IRStreamPart, type IRUsage, type ReasoningOrigin } from "../../ir/types";
import { statusOfChatStreamError } from "./errors";
import { fromChatFinishReason } from "./finish-reason";
import { originFromFormat } from "./reasoning-details";
import { BlockTracker } from "./stream-blocks";
import { decodeChatUsage } from "./usage";
import type { WireDelta, WireReasoningDetail, WireStreamChunk, WireStreamToolCall } from "./wire";

/** Upstream Chat SSE → IR stream parts. */

const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);
const optionalId = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/**
 * A chunk with no choice, usage or error: Azure OpenAI opens its streams with one that holds only
 * `prompt_filter_results` (id and model empty), which must not start the answer in their place.
 */
export const carriesNothing = (chunk: WireStreamChunk): boolean => Array.isArray(chunk.choices) && chunk.choices.length === 0 && !chunk.usage && !chunk.error;

class ChatStreamDecoder implements UpstreamStreamDecoder {
  finished = false;
  private started = false;
  private blocks = new BlockTracker();
  private finishReason: string | undefined;
  private nativeFinishReason: string | undefined;
  private usage: Partial<IRUsage> = {};
  private sawToolCall = false;
  /** identities of tool calls already seen, by upstream index, for providers that revisit one */
  private tools = new Map<number | string, { id: string; name: string }>();
  private lastToolKey: number | string = 0;

  push(event: SseEvent): IRStreamPart[] {
    if (this.finished) return [];
    const data = event.data.trim();
    const out: IRStreamPart[] = [];
    if (data === "[DONE]") return this.finish(out);
    let chunk: WireStreamChunk;
    try {
      chunk = (event.json ?? JSON.parse(data)) as WireStreamChunk;
    } catch {
      return this.fail(out, 502, "Upstream sent a malformed stream chunk");
    }
    if (!chunk || typeof chunk !== "object" || carriesNothing(chunk)) return [];
    this.ensureStarted(out, chunk);
    if (chunk.error) {
      return this.fail(out, statusOfChatStreamError(chunk.error.code), chunk.error.message || "Upstream error", chunk.error.metadata?.error_type);
    }
    const choice = Array.isArray(chunk.choices) ? chunk.choices.find((c) => (c?.index ?? 0) === 0) : undefined;
    if (choice?.delta) this.readDelta(out, choice.delta);
    if (choice?.finish_reason) {
      this.finishReason = choice.finish_reason;
      this.nativeFinishReason = choice.native_finish_reason ?? choice.finish_reason;
      this.blocks.close(out);
    }
    if (chunk.usage) {
      const usage = decodeChatUsage(chunk.usage);
      Object.assign(this.usage, usage);
      out.push({ type: "usage", usage });
    }
    return out;
  }

  end(): IRStreamPart[] {
    if (this.finished) return [];
    const out: IRStreamPart[] = [];
    if (this.finishReason !== undefined) return this.finish(out);
    return this.fail(out, 502, "Upstream stream ended before it finished");
  }

  private ensureStarted(out: IRStreamPart[], chunk: WireStreamChunk): void {
    if (this.started) return;
    this.started = true;
    out.push({ type: "start", id: typeof chunk.id === "string" ? chunk.id : "", model: typeof chunk.model === "string" ? chunk.model : "" });
  }

  private finish(out: IRStreamPart[]): IRStreamPart[] {
    this.ensureStarted(out, {});
    this.blocks.close(out);
    this.finished = true;
    out.push({
      type: "finish",
      finishReason: fromChatFinishReason(this.finishReason, this.sawToolCall),
      nativeFinishReason: this.nativeFinishReason ?? null,
      usage: { ...emptyUsage(), ...this.usage },
    });
    return out;
  }

  private fail(out: IRStreamPart[], status: number, message: string, errorType?: string): IRStreamPart[] {
    this.blocks.close(out);
    this.finished = true;
    out.push(errorType ? { type: "error", status, message, errorType } : { type: "error", status, message });
    return out;
  }

  private readDelta(out: IRStreamPart[], delta: WireDelta): void {
    // OpenRouter repeats reasoning text in `reasoning` and `reasoning_details`; the details are lossless.
    if (Array.isArray(delta.reasoning_details) && delta.reasoning_details.length > 0) {
      for (const detail of delta.reasoning_details) if (detail && typeof detail === "object") this.readDetail(out, detail);
    } else {
      const reasoning = text(delta.reasoning) ?? text(delta.reasoning_content);
      if (reasoning !== undefined) this.reasoningText(out, reasoning, { type: "reasoning.text" }, "unknown");
    }
    const content = text(delta.content);
    if (content !== undefined) out.push({ type: "text-delta", index: this.blocks.plain(out, "text"), text: content });
    const refusal = text(delta.refusal);
    if (refusal !== undefined) out.push({ type: "refusal-delta", index: this.blocks.plain(out, "refusal"), text: refusal });
    if (Array.isArray(delta.tool_calls)) for (const call of delta.tool_calls) if (call) this.readToolCall(out, call);
  }

  private readDetail(out: IRStreamPart[], detail: WireReasoningDetail): void {
    if (detail.type === "reasoning.text" || detail.type === "reasoning.summary") {
      const signature = text(detail.signature);
      const origin = originFromFormat(detail.format, signature !== undefined);
      const body = detail.type === "reasoning.text" ? detail.text : detail.summary;
      const index = this.reasoningText(out, text(body) ?? "", detail, origin);
      if (signature !== undefined) out.push({ type: "reasoning-signature", index, signature });
    } else if (detail.type === "reasoning.encrypted" && typeof detail.data === "string") {
      this.reasoningEncrypted(out, detail, detail.data);
    }
  }

  /** Text continues the open reasoning block when it belongs to the same detail item. */
  private reasoningText(out: IRStreamPart[], body: string, detail: WireReasoningDetail, origin: ReasoningOrigin): number {
    const summary = detail.type === "reasoning.summary";
    const open = this.blocks.open;
    const id = optionalId(detail.id);
    const continues =
      open?.kind === "reasoning" &&
      !open.block.redacted &&
      (open.block.summary ?? false) === summary &&
      (detail.index === undefined ? open.block.origin === origin : open.detailIndex === detail.index);
    let index: number;
    if (continues) index = open.index;
    else {
      const block = { type: "reasoning" as const, origin, ...(id !== undefined ? { id } : {}), ...(summary ? { summary } : {}) };
      index = this.blocks.start(out, { kind: "reasoning", block, detailIndex: detail.index, hasEncrypted: false }, block).index;
    }
    if (body !== "") out.push({ type: "reasoning-delta", index, text: body });
    return index;
  }

  /** Anthropic redacted thinking is a block of its own; other payloads belong to the item before them. */
  private reasoningEncrypted(out: IRStreamPart[], detail: WireReasoningDetail, data: string): void {
    const origin = originFromFormat(detail.format, true);
    const id = optionalId(detail.id);
    const open = this.blocks.open;
    if (
      origin !== "anthropic-messages" &&
      open?.kind === "reasoning" &&
      !open.block.redacted &&
      !open.hasEncrypted &&
      open.block.origin === origin &&
      (id === undefined || id === open.block.id)
    ) {
      open.hasEncrypted = true;
      out.push({ type: "reasoning-encrypted", index: open.index, data });
      return;
    }
    const block =
      origin === "anthropic-messages"
        ? { type: "reasoning" as const, origin, redacted: true, encrypted: data }
        : { type: "reasoning" as const, origin, ...(id !== undefined ? { id } : {}), encrypted: data };
    this.blocks.start(out, { kind: "reasoning", block, detailIndex: detail.index, hasEncrypted: true }, block);
  }

  private readToolCall(out: IRStreamPart[], call: WireStreamToolCall): void {
    const givenId = optionalId(call.id) || undefined;
    const key = typeof call.index === "number" ? call.index : givenId !== undefined ? `id:${givenId}` : this.lastToolKey;
    this.lastToolKey = key;
    this.sawToolCall = true;
    const open = this.blocks.open;
    let index: number;
    // Some providers put every parallel call at index 0 and tell them apart only by id.
    if (open?.kind === "tool_call" && open.key === key && (givenId === undefined || givenId === open.id)) index = open.index;
    else {
      const known = this.tools.get(key);
      const id = givenId ?? known?.id ?? `call_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`;
      const name = call.function?.name || known?.name || "";
      this.tools.set(key, { id, name });
      index = this.blocks.start(out, { kind: "tool_call", key, id }, { type: "tool_call", id, name }).index;
    }
    const args = text(call.function?.arguments);
    if (args !== undefined) out.push({ type: "tool-args-delta", index, delta: args });
  }
}

export function createChatStreamDecoder(): UpstreamStreamDecoder {
  return new ChatStreamDecoder();
}
