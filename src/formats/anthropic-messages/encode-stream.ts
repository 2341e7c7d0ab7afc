import type { EncodeContext, InboundStreamEncoder } from "../../ir/codec";
import type { Settlement } from "../../ir/settlement";
import { emptyUsage, type IRFinishPart, type IRReasoningPart, type IRStreamBlock, type IRStreamPart, type IRUsage } from "../../ir/types";
import { packForeignSignature } from "../reasoning-signature";
import { withServiceMetadata } from "../service-metadata";
import { errorTypeForStatus, isAnthropicErrorType } from "./errors";
import { encodeStopReason } from "./finish-reason";
import { sseEvent } from "./sse";
import { encodeSettledUsage, encodeUsage } from "./usage";

/**
 * How the open IR block is written:
 * - "text" / "tool": streamed as they come;
 * - "thinking": Anthropic reasoning, signature_delta passed through;
 * - "foreign": another upstream's reasoning; its signature is packed and sent at the end;
 * - "redacted": redacted_thinking carries its data in content_block_start, which may
 *   only be complete at block-end, so the whole block is written then.
 */
type OpenBlock = {
  irIndex: number;
  wireIndex: number;
  kind: "text" | "tool" | "thinking" | "foreign" | "redacted";
  reasoning?: IRReasoningPart;
};

function blockKind(block: IRStreamBlock): OpenBlock["kind"] {
  if (block.type === "tool_call") return "tool";
  if (block.type !== "reasoning") return "text";
  if (block.origin !== "anthropic-messages") return "foreign";
  return block.redacted ? "redacted" : "thinking";
}

function startBlock(block: IRStreamBlock): Record<string, unknown> {
  if (block.type === "tool_call") return { type: "tool_use", id: block.id, name: block.name, input: {} };
  if (block.type === "reasoning") return { type: "thinking", thinking: "", signature: "" };
  return { type: "text", text: "" };
}

/** The in-stream error event that ends a failed stream. */
export function streamErrorEvent(part: Extract<IRStreamPart, { type: "error" }>): string {
  const type = isAnthropicErrorType(part.errorType) ? part.errorType : errorTypeForStatus(part.status);
  return sseEvent("error", { error: { type, message: part.message } });
}

/** message_delta of a finished answer: its stop reason and the usage the gateway charged. */
export function settledMessageDelta(part: IRFinishPart, settlement: Settlement): string {
  const stopReason = encodeStopReason(part.finishReason, part.stopSequence, part.nativeFinishReason);
  return sseEvent("message_delta", {
    delta: {
      stop_reason: stopReason,
      stop_sequence: stopReason === "stop_sequence" ? (part.stopSequence ?? null) : null,
      stop_details: null,
      container: null,
    },
    usage: encodeSettledUsage(part.usage, settlement),
  });
}

class MessagesStreamEncoder implements InboundStreamEncoder {
  private started = false;
  private done = false;
  private nextWireIndex = 0;
  private open: OpenBlock | undefined;
  private usage: Partial<IRUsage> = {};

  constructor(private readonly ctx: EncodeContext) {}

  encode(part: Exclude<IRStreamPart, IRFinishPart>): string {
    if (this.done) return "";
    if (part.type === "start") {
      this.usage = { ...this.usage, ...part.usage };
      return this.messageStart();
    }
    if (part.type === "usage") {
      this.usage = { ...this.usage, ...part.usage };
      return "";
    }
    if (part.type === "error") {
      this.done = true;
      return streamErrorEvent(part);
    }
    return this.messageStart() + this.blockPart(part);
  }

  finish(part: IRFinishPart, settlement: Settlement): string {
    if (this.done) return "";
    const head = this.messageStart() + this.closeOpen();
    this.done = true;
    return head + settledMessageDelta(part, settlement) + sseEvent("message_stop", withServiceMetadata(settlement));
  }

  private messageStart(): string {
    if (this.started) return "";
    this.started = true;
    // an Anthropic upstream's own figure wins; other upstreams report input tokens only at the end
    const usage = encodeUsage({ ...emptyUsage(), inputTokens: this.ctx.promptTokens ?? 0, ...this.usage, outputTokens: 0 });
    const message = {
      id: this.ctx.generationId,
      type: "message",
      role: "assistant",
      model: this.ctx.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      stop_details: null,
      container: null,
      usage,
    };
    return sseEvent("message_start", { message });
  }

  private blockPart(part: Exclude<IRStreamPart, IRFinishPart>): string {
    if (part.type === "block-start") return this.closeOpen() + this.openBlock(part.index, part.block);
    const open = this.open;
    if (!open || !("index" in part) || part.index !== open.irIndex) return "";
    const delta = (d: Record<string, unknown>) => sseEvent("content_block_delta", { index: open.wireIndex, delta: d });
    switch (part.type) {
      case "text-delta":
      case "refusal-delta":
        return open.kind === "text" ? delta({ type: "text_delta", text: part.text }) : "";
      case "tool-args-delta":
        return open.kind === "tool" ? delta({ type: "input_json_delta", partial_json: part.delta }) : "";
      case "reasoning-delta":
        if (open.reasoning) open.reasoning.text += part.text;
        return open.kind === "thinking" || open.kind === "foreign" ? delta({ type: "thinking_delta", thinking: part.text }) : "";
      case "reasoning-signature":
        if (open.kind === "thinking") return delta({ type: "signature_delta", signature: part.signature });
        if (open.reasoning) open.reasoning.signature = part.signature;
        return "";
      case "reasoning-encrypted":
        if (open.reasoning) open.reasoning.encrypted = part.data;
        return "";
      case "block-end":
        return this.closeOpen();
      default:
        return "";
    }
  }

  private openBlock(irIndex: number, block: IRStreamBlock): string {
    const kind = blockKind(block);
    const open: OpenBlock = { irIndex, wireIndex: this.nextWireIndex++, kind };
    if (block.type === "reasoning" && (kind === "foreign" || kind === "redacted")) {
      open.reasoning = { type: "reasoning", text: "", origin: block.origin };
      if (block.id) open.reasoning.id = block.id;
      if (block.encrypted) open.reasoning.encrypted = block.encrypted;
      // a summary must go back as a summary (Responses summary_text, not raw reasoning_text)
      if (block.summary) open.reasoning.summary = true;
    }
    this.open = open;
    if (kind === "redacted") return "";
    return sseEvent("content_block_start", { index: open.wireIndex, content_block: startBlock(block) });
  }

  private closeOpen(): string {
    const open = this.open;
    if (!open) return "";
    this.open = undefined;
    const stop = sseEvent("content_block_stop", { index: open.wireIndex });
    if (open.kind === "redacted") {
      const block = { type: "redacted_thinking", data: open.reasoning?.encrypted ?? "" };
      return sseEvent("content_block_start", { index: open.wireIndex, content_block: block }) + stop;
    }
    if (open.kind === "foreign" && open.reasoning) {
      const signature = packForeignSignature(open.reasoning);
      return sseEvent("content_block_delta", { index: open.wireIndex, delta: { type: "signature_delta", signature } }) + stop;
    }
    return stop;
  }
}

export function createStreamEncoder(ctx: EncodeContext): InboundStreamEncoder {
  return new MessagesStreamEncoder(ctx);
}
