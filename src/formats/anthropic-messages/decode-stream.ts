import type { SseEvent, UpstreamStreamDecoder } from "../../ir/codec";
import type { IRStreamBlock, IRStreamPart } from "../../ir/types";
import { statusForErrorType } from "./errors";
import { decodeStopReason } from "./finish-reason";
import { decodeUsage, inputSideOf, mergeUsageWire } from "./usage";
import type { WireBlock, WireDelta, WireEvent, WireUsage } from "./wire";

/**
 * Anthropic SSE -> IR stream parts. Blocks the IR cannot carry (server tool use,
 * web search results...) are skipped, so IR indexes are renumbered from 0 and the
 * Anthropic index of each kept block is remembered.
 */
class MessagesStreamDecoder implements UpstreamStreamDecoder {
  finished = false;
  private nextIndex = 0;
  /** Anthropic index -> IR index of the open block */
  private open: { wire: number; ir: number } | undefined;
  private usage: WireUsage = {};
  private stopReason: string | null | undefined;
  private stopSequence: string | null = null;

  push(event: SseEvent): IRStreamPart[] {
    if (this.finished || event.data === "[DONE]") return [];
    let data: WireEvent;
    try {
      data = (event.json ?? JSON.parse(event.data)) as WireEvent;
    } catch {
      return this.fail(502, "Upstream sent an event that is not JSON");
    }
    switch (data.type) {
      case "message_start": {
        this.usage = mergeUsageWire(this.usage, data.message?.usage ?? {});
        const start: IRStreamPart = { type: "start", id: data.message?.id ?? "", model: data.message?.model ?? "" };
        if (data.message?.usage) start.usage = inputSideOf(decodeUsage(this.usage));
        return [start];
      }
      case "content_block_start":
        return this.blockStart(data.index ?? 0, data.content_block ?? { type: "unknown" });
      case "content_block_delta":
        return this.blockDelta(data.index ?? 0, data.delta ?? { type: "unknown" });
      case "content_block_stop":
        return this.blockStop(data.index ?? 0);
      case "message_delta":
        this.stopReason = data.delta?.stop_reason ?? this.stopReason;
        this.stopSequence = data.delta?.stop_sequence ?? this.stopSequence;
        this.usage = mergeUsageWire(this.usage, data.usage ?? {});
        return [];
      case "message_stop":
        return this.finish();
      case "error":
        return this.fail(statusForErrorType(data.error?.type), data.error?.message ?? "Upstream stream error", data.error?.type);
      default:
        return []; // ping and event kinds added later
    }
  }

  end(): IRStreamPart[] {
    if (this.finished) return [];
    if (this.stopReason !== undefined) return this.finish();
    return this.fail(502, "Upstream stream ended before message_stop");
  }

  private blockStart(wire: number, block: WireBlock): IRStreamPart[] {
    let irBlock: IRStreamBlock;
    const after: IRStreamPart[] = [];
    const index = this.nextIndex;
    switch (block.type) {
      case "text":
        irBlock = { type: "text" };
        if (block.text) after.push({ type: "text-delta", index, text: block.text });
        break;
      case "thinking":
        irBlock = { type: "reasoning", origin: "anthropic-messages" };
        if (block.thinking) after.push({ type: "reasoning-delta", index, text: block.thinking });
        if (block.signature) after.push({ type: "reasoning-signature", index, signature: block.signature });
        break;
      case "redacted_thinking":
        irBlock = { type: "reasoning", origin: "anthropic-messages", redacted: true, encrypted: block.data ?? "" };
        break;
      case "tool_use": {
        irBlock = { type: "tool_call", id: block.id ?? "", name: block.name ?? "" };
        const input = block.input;
        if (typeof input === "object" && input !== null && Object.keys(input).length > 0) {
          after.push({ type: "tool-args-delta", index, delta: JSON.stringify(input) });
        }
        break;
      }
      default:
        return [];
    }
    const closed = this.closeOpen();
    this.nextIndex++;
    this.open = { wire, ir: index };
    return [...closed, { type: "block-start", index, block: irBlock }, ...after];
  }

  private blockDelta(wire: number, delta: WireDelta): IRStreamPart[] {
    if (!this.open || this.open.wire !== wire) return [];
    const index = this.open.ir;
    switch (delta.type) {
      case "text_delta":
        return delta.text ? [{ type: "text-delta", index, text: delta.text }] : [];
      case "input_json_delta":
        return delta.partial_json ? [{ type: "tool-args-delta", index, delta: delta.partial_json }] : [];
      case "thinking_delta":
        return delta.thinking ? [{ type: "reasoning-delta", index, text: delta.thinking }] : [];
      case "signature_delta":
        return delta.signature ? [{ type: "reasoning-signature", index, signature: delta.signature }] : [];
      default:
        return []; // citations_delta and others have no IR form
    }
  }

  private blockStop(wire: number): IRStreamPart[] {
    if (!this.open || this.open.wire !== wire) return [];
    return this.closeOpen();
  }

  private closeOpen(): IRStreamPart[] {
    if (!this.open) return [];
    const index = this.open.ir;
    this.open = undefined;
    return [{ type: "block-end", index }];
  }

  private finish(): IRStreamPart[] {
    this.finished = true;
    const finish: IRStreamPart = {
      type: "finish",
      finishReason: decodeStopReason(this.stopReason),
      stopSequence: this.stopSequence,
      nativeFinishReason: this.stopReason ?? null,
      usage: decodeUsage(this.usage),
    };
    return [...this.closeOpen(), finish];
  }

  /** The open block is closed first: the grammar holds however the upstream fails. */
  private fail(status: number, message: string, errorType?: string): IRStreamPart[] {
    this.finished = true;
    const error: IRStreamPart = { type: "error", status, message };
    if (errorType) error.errorType = errorType;
    return [...this.closeOpen(), error];
  }
}

export function createStreamDecoder(): UpstreamStreamDecoder {
  return new MessagesStreamDecoder();
}
