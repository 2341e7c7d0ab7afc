import type { EncodeContext, InboundStreamEncoder } from "../../ir/codec";
import type { Settlement } from "../../ir/settlement";
import type { IRFinishPart, IRStreamBlock, IRStreamPart, IRUsage } from "../../ir/types";
import { withServiceMetadata } from "../service-metadata";
import { chatStreamError } from "./errors";
import { toChatFinishReason } from "./finish-reason";
import { ReasoningDetailWriter } from "./reasoning-details";
import { encodeChatUsage } from "./usage";

/** IR stream parts → Chat SSE (`data: <ChatStreamChunk>` frames, then `data: [DONE]`). */

type ReasoningBlock = Extract<IRStreamBlock, { type: "reasoning" }>;

type OpenBlock =
  | { type: "text" | "refusal" }
  | { type: "tool_call"; toolIndex: number }
  | { type: "reasoning"; block: ReasoningBlock; detailIndex?: number; pendingEncrypted?: string };

const frame = (chunk: unknown) => `data: ${JSON.stringify(chunk)}\n\n`;

export function chunkEnvelope(ctx: EncodeContext, extra: Record<string, unknown>): Record<string, unknown> {
  const { generationId: id, created, model, provider } = ctx;
  return { id, object: "chat.completion.chunk", created, model, ...(provider === undefined ? {} : { provider }), ...extra };
}

/** The usage-only chunk that closes a stream, with what the gateway charged. */
export function settledUsageChunk(ctx: EncodeContext, usage: IRUsage, settlement: Settlement): Record<string, unknown> {
  return chunkEnvelope(ctx, { choices: [], usage: encodeChatUsage(usage, settlement), ...withServiceMetadata(settlement) });
}

/** In-band error after the 200 went out: one last chunk, no [DONE]. */
export function errorChunk(ctx: EncodeContext, part: Extract<IRStreamPart, { type: "error" }>): string {
  return frame(chunkEnvelope(ctx, { error: chatStreamError(part), choices: [{ index: 0, delta: { content: "" }, finish_reason: "error" }] }));
}

class ChatStreamEncoder implements InboundStreamEncoder {
  private blocks = new Map<number, OpenBlock>();
  private toolCount = 0;
  private details = new ReasoningDetailWriter();
  private roleSent = false;
  private done = false;

  constructor(private readonly ctx: EncodeContext) {}

  encode(part: Exclude<IRStreamPart, IRFinishPart>): string {
    if (this.done) return "";
    switch (part.type) {
      case "start":
        return this.delta({ content: "" });
      case "block-start":
        return this.blockStart(part.index, part.block);
      case "text-delta":
        return part.text === "" ? "" : this.delta({ content: part.text });
      case "refusal-delta":
        return part.text === "" ? "" : this.delta({ refusal: part.text });
      case "reasoning-delta":
        return this.reasoningText(part.index, part.text);
      case "reasoning-signature":
        return this.reasoningText(part.index, "", part.signature);
      case "reasoning-encrypted":
        return this.reasoningEncrypted(part.index, part.data);
      case "tool-args-delta": {
        const block = this.blocks.get(part.index);
        if (block?.type !== "tool_call" || part.delta === "") return "";
        return this.delta({ tool_calls: [{ index: block.toolIndex, function: { arguments: part.delta } }] });
      }
      case "block-end":
        return this.blockEnd(part.index);
      case "usage":
        return "";
      case "error":
        return this.error(part);
    }
  }

  finish(part: IRFinishPart, settlement: Settlement): string {
    if (this.done) return "";
    const unclosed = [...this.blocks.keys()].map((index) => this.blockEnd(index)).join("");
    this.done = true;
    const reason = toChatFinishReason(part.finishReason);
    const last = unclosed + this.delta({}, reason, { native_finish_reason: part.nativeFinishReason ?? null });
    return `${last + frame(settledUsageChunk(this.ctx, part.usage, settlement))}data: [DONE]\n\n`;
  }

  /** One choice chunk; the first chunk of the stream also names the role, as OpenAI does. */
  private delta(delta: Record<string, unknown>, finishReason: string | null = null, extra: Record<string, unknown> = {}): string {
    const withRole = this.roleSent ? delta : { role: "assistant", ...delta };
    this.roleSent = true;
    return frame(chunkEnvelope(this.ctx, { choices: [{ index: 0, delta: withRole, finish_reason: finishReason, ...extra }] }));
  }

  private blockStart(index: number, block: IRStreamBlock): string {
    if (block.type === "tool_call") {
      const toolIndex = this.toolCount++;
      this.blocks.set(index, { type: "tool_call", toolIndex });
      return this.delta({
        tool_calls: [{ index: toolIndex, id: block.id, type: "function", function: { name: block.name, arguments: "" } }],
      });
    }
    if (block.type !== "reasoning") {
      this.blocks.set(index, { type: block.type });
      return "";
    }
    // A payload known at the start goes out after the block's text, the order non-streaming
    // answers use, so the text and the payload stay one item for clients and decoders.
    this.blocks.set(index, { type: "reasoning", block, pendingEncrypted: block.redacted ? undefined : block.encrypted });
    return block.redacted && block.encrypted !== undefined ? this.reasoningEncrypted(index, block.encrypted) : "";
  }

  private blockEnd(index: number): string {
    const open = this.blocks.get(index);
    const pending = open?.type === "reasoning" ? open.pendingEncrypted : undefined;
    const sse = pending !== undefined ? this.reasoningEncrypted(index, pending) : "";
    this.blocks.delete(index);
    return sse;
  }

  /** Text and signature of one block share a detail index so clients merging by index get one item. */
  private reasoningText(index: number, text: string, signature?: string): string {
    const open = this.blocks.get(index);
    if (open?.type !== "reasoning" || (text === "" && signature === undefined)) return "";
    open.detailIndex ??= this.details.reserve();
    const detail = this.details.textItem(open.block, text, signature, open.detailIndex);
    return this.delta(text === "" ? { reasoning_details: [detail] } : { reasoning: text, reasoning_details: [detail] });
  }

  private reasoningEncrypted(index: number, data: string): string {
    const open = this.blocks.get(index);
    if (open?.type !== "reasoning") return "";
    open.pendingEncrypted = undefined;
    return this.delta({ reasoning_details: [this.details.encryptedItem(open.block, data)] });
  }

  private error(part: Extract<IRStreamPart, { type: "error" }>): string {
    this.done = true;
    return errorChunk(this.ctx, part);
  }
}

export function createChatStreamEncoder(ctx: EncodeContext): InboundStreamEncoder {
  return new ChatStreamEncoder(ctx);
}
