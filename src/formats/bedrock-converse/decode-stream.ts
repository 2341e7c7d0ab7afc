import type { SseEvent, UpstreamStreamDecoder } from "../../ir/codec";
import type { IRStreamBlock, IRStreamPart, IRUsage } from "../../ir/types";
import { eventObject } from "../json-object";
import { stopSequenceOf } from "./decode-result";
import { firstParagraph, statusForException } from "./errors";
import { decodeStopReason } from "./finish-reason";
import { ERROR_PREFIX, EXCEPTION_PREFIX } from "./stream-events";
import { decodeUsage } from "./usage";
import type { WireDelta, WireStreamEvent } from "./wire";

type OpenBlock = { wire: number; ir: number; kind: IRStreamBlock["type"] };

/**
 * ConverseStream events -> IR stream parts. A text or reasoning block has no start event: its
 * first delta opens it. `messageStop` (the stop reason) comes before `metadata` (the usage), so
 * the stream finishes on `metadata`, or when it closes after `messageStop`.
 */
class ConverseStreamDecoder implements UpstreamStreamDecoder {
  finished = false;
  private nextIndex = 0;
  private open: OpenBlock | undefined;
  private stopReason: string | undefined;
  private stopSequence: string | null = null;
  private usage: IRUsage | undefined;

  push(event: SseEvent): IRStreamPart[] {
    if (this.finished) return [];
    const name = event.event ?? "";
    const data = eventObject(event) as WireStreamEvent | undefined;
    if (name.startsWith(EXCEPTION_PREFIX) || name.startsWith(ERROR_PREFIX)) return this.exception(name, data);
    if (!data) return this.fail(502, "Upstream sent an event that is not JSON");
    switch (name) {
      case "messageStart":
        return [{ type: "start", id: "", model: "" }];
      case "contentBlockStart": {
        const toolUse = data.start?.toolUse;
        if (!toolUse) return [];
        return this.openBlock(data.contentBlockIndex ?? 0, { type: "tool_call", id: toolUse.toolUseId ?? "", name: toolUse.name ?? "" });
      }
      case "contentBlockDelta":
        return this.delta(data.contentBlockIndex ?? 0, data.delta ?? {});
      case "contentBlockStop":
        return this.open?.wire === (data.contentBlockIndex ?? 0) ? this.closeOpen() : [];
      case "messageStop":
        this.stopReason = data.stopReason ?? "end_turn";
        this.stopSequence = stopSequenceOf(data.additionalModelResponseFields);
        return [];
      case "metadata":
        this.usage = decodeUsage(data.usage);
        return this.stopReason === undefined ? [] : this.finish();
      default:
        return []; // event kinds added later
    }
  }

  end(): IRStreamPart[] {
    if (this.finished) return [];
    if (this.stopReason !== undefined) return this.finish();
    return this.fail(502, "Upstream stream ended before messageStop");
  }

  private delta(wire: number, delta: WireDelta): IRStreamPart[] {
    if (typeof delta.text === "string") {
      if (delta.text === "") return [];
      return this.into(wire, { type: "text" }, (index) => [{ type: "text-delta", index, text: delta.text! }]);
    }
    if (delta.toolUse) {
      const piece = delta.toolUse.input ?? "";
      return this.into(wire, { type: "tool_call", id: "", name: "" }, (index) => (piece === "" ? [] : [{ type: "tool-args-delta", index, delta: piece }]));
    }
    const reasoning = delta.reasoningContent;
    if (!reasoning) return []; // citations have no IR form
    if (reasoning.redactedContent !== undefined) {
      const data = reasoning.redactedContent;
      if (this.open?.wire === wire && this.open.kind === "reasoning") return [{ type: "reasoning-encrypted", index: this.open.ir, data }];
      return this.openBlock(wire, { type: "reasoning", origin: "bedrock", redacted: true, encrypted: data });
    }
    if (reasoning.signature)
      return this.into(wire, { type: "reasoning", origin: "bedrock" }, (index) => [{ type: "reasoning-signature", index, signature: reasoning.signature! }]);
    if (reasoning.text)
      return this.into(wire, { type: "reasoning", origin: "bedrock" }, (index) => [{ type: "reasoning-delta", index, text: reasoning.text! }]);
    return [];
  }

  /** Parts for the block at `wire`, opening it (as `block`) when it is not the open one. */
  private into(wire: number, block: IRStreamBlock, parts: (index: number) => IRStreamPart[]): IRStreamPart[] {
    if (this.open?.wire === wire && this.open.kind === block.type) return parts(this.open.ir);
    const opened = this.openBlock(wire, block);
    return [...opened, ...parts(this.open!.ir)];
  }

  private openBlock(wire: number, block: IRStreamBlock): IRStreamPart[] {
    const closed = this.closeOpen();
    const index = this.nextIndex++;
    this.open = { wire, ir: index, kind: block.type };
    return [...closed, { type: "block-start", index, block }];
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
      usage: this.usage ?? decodeUsage(undefined),
    };
    return [...this.closeOpen(), finish];
  }

  /** An exception frame ends the stream as an error, with the status the same exception has before a stream. */
  private exception(name: string, data: WireStreamEvent | undefined): IRStreamPart[] {
    const type = name.slice(name.indexOf(":") + 1);
    const message = data?.message ?? data?.Message;
    const status = name.startsWith(EXCEPTION_PREFIX) ? statusForException(type) : 502;
    return this.fail(status, typeof message === "string" && message !== "" ? firstParagraph(message) : `Upstream stream error: ${type}`, type);
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
  return new ConverseStreamDecoder();
}
