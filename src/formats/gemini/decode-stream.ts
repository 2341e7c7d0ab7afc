import type { SseEvent, UpstreamStreamDecoder } from "../../ir/codec";
import type { IRStreamBlock, IRStreamPart } from "../../ir/types";
import { eventObject, isJsonObject } from "../json-object";
import { statusOfStreamError } from "./errors";
import { BLOCKED_PROMPT, decodeFinishReason } from "./finish-reason";
import { argumentsText, toolCallId } from "./tool-call-id";
import { decodeUsage } from "./usage";
import type { WirePart, WireResponse, WireUsage } from "./wire";

/**
 * `streamGenerateContent?alt=sse` → IR stream parts. Each event is a GenerateContentResponse with
 * what is new: text and thought pieces, whole function calls, and on the last one the finish
 * reason and the usage (https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent).
 * The stream has no end marker of its own, so it finishes when the upstream closes it.
 */
class GeminiStreamDecoder implements UpstreamStreamDecoder {
  finished = false;
  private started = false;
  private nextIndex = 0;
  /** `whole`: a block made of one part (a call, a signature), closed by its opener */
  private open: { index: number; kind: "text" | "reasoning" | "whole" } | undefined;
  private usage: WireUsage = {};
  private finishReason: string | undefined;
  private blocked: string | undefined;
  private calledTools = false;

  push(event: SseEvent): IRStreamPart[] {
    if (this.finished) return [];
    const data = eventObject(event) as WireResponse | undefined;
    if (!data) return this.fail(502, "Upstream sent an event that is not a JSON object");
    if (isJsonObject(data.error))
      return this.fail(
        statusOfStreamError(data.error),
        typeof data.error.message === "string" ? data.error.message : "Upstream stream error",
        data.error.status,
      );
    const out: IRStreamPart[] = [];
    if (!this.started) {
      this.started = true;
      out.push({
        type: "start",
        id: typeof data.responseId === "string" ? data.responseId : "",
        model: typeof data.modelVersion === "string" ? data.modelVersion : "",
      });
    }
    if (isJsonObject(data.usageMetadata)) this.readUsage(out, data.usageMetadata);
    if (typeof data.promptFeedback?.blockReason === "string") this.blocked = data.promptFeedback.blockReason;
    const candidate = Array.isArray(data.candidates) ? data.candidates[0] : undefined;
    if (!isJsonObject(candidate)) return out;
    const parts = Array.isArray(candidate.content?.parts) ? candidate.content.parts : [];
    for (const part of parts) if (isJsonObject(part)) this.readPart(out, part as WirePart);
    if (typeof candidate.finishReason === "string") this.finishReason = candidate.finishReason;
    return out;
  }

  end(): IRStreamPart[] {
    if (this.finished) return [];
    if (this.finishReason === undefined && this.blocked === undefined) return this.fail(502, "Upstream stream ended before a finish reason");
    this.finished = true;
    const finishReason = this.finishReason !== undefined ? decodeFinishReason(this.finishReason, this.calledTools) : BLOCKED_PROMPT;
    return [
      ...this.closeOpen(),
      { type: "finish", finishReason, nativeFinishReason: this.finishReason ?? this.blocked ?? null, usage: decodeUsage(this.usage) },
    ];
  }

  /**
   * Every event carries the usage so far; the prompt side is final from the first, and is passed on
   * then (as Anthropic's message_start does), so a stream cut short is still billed its prompt.
   */
  private readUsage(out: IRStreamPart[], usage: WireUsage): void {
    const before = decodeUsage(this.usage);
    this.usage = { ...this.usage, ...usage };
    const now = decodeUsage(this.usage);
    if (now.inputTokens !== before.inputTokens || now.cachedTokens !== before.cachedTokens)
      out.push({ type: "usage", usage: { inputTokens: now.inputTokens, cachedTokens: now.cachedTokens } });
  }

  private readPart(out: IRStreamPart[], part: WirePart): void {
    const signature = typeof part.thoughtSignature === "string" && part.thoughtSignature !== "" ? part.thoughtSignature : undefined;
    if (isJsonObject(part.functionCall)) {
      const call = part.functionCall;
      const id = toolCallId(call.id);
      if (signature !== undefined) this.signatureBlock(out, signature, id);
      this.calledTools = true;
      const index = this.startBlock(out, { type: "tool_call", id, name: typeof call.name === "string" ? call.name : "" });
      out.push({ type: "tool-args-delta", index, delta: argumentsText(call.args) }, ...this.closeOpen());
      return;
    }
    const text = typeof part.text === "string" ? part.text : "";
    const kind = part.thought === true ? "reasoning" : "text";
    if (text !== "") {
      const index =
        this.open?.kind === kind ? this.open.index : this.startBlock(out, kind === "text" ? { type: "text" } : { type: "reasoning", origin: "gemini" }, kind);
      out.push(kind === "text" ? { type: "text-delta", index, text } : { type: "reasoning-delta", index, text });
    }
    if (signature === undefined) return;
    // a thought's signature closes that thought; a text part's stands on its own after it
    if (kind === "reasoning" && this.open?.kind === "reasoning")
      out.push({ type: "reasoning-encrypted", index: this.open.index, data: signature }, ...this.closeOpen());
    else this.signatureBlock(out, signature);
  }

  /** A signature as a reasoning block of its own: opened with its payload, closed at once. */
  private signatureBlock(out: IRStreamPart[], signature: string, id?: string): void {
    const block: IRStreamBlock =
      id === undefined ? { type: "reasoning", origin: "gemini", encrypted: signature } : { type: "reasoning", origin: "gemini", id, encrypted: signature };
    this.startBlock(out, block);
    out.push(...this.closeOpen());
  }

  private startBlock(out: IRStreamPart[], block: IRStreamBlock, kind: "text" | "reasoning" | "whole" = "whole"): number {
    out.push(...this.closeOpen());
    const index = this.nextIndex++;
    out.push({ type: "block-start", index, block });
    this.open = { index, kind };
    return index;
  }

  private closeOpen(): IRStreamPart[] {
    if (!this.open) return [];
    const index = this.open.index;
    this.open = undefined;
    return [{ type: "block-end", index }];
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
  return new GeminiStreamDecoder();
}
