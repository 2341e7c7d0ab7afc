import type { EncodeContext, IRErrorPart, SseEvent, StreamWriter } from "../../ir/codec";
import type { Settlement } from "../../ir/settlement";
import type { IRFinishPart, IRStreamBlock, IRStreamPart } from "../../ir/types";
import { eventObject, isJsonObject, type JsonObject } from "../json-object";
import { withServiceMetadata } from "../service-metadata";
import { ChunkHead } from "./chunk-head";
import { carriesNothing } from "./decode-stream";
import { chunkEnvelope, errorChunk, settledUsageChunk } from "./encode-stream";
import { toChatFinishReason } from "./finish-reason";
import { hasReasoningDetails, isFirstChoice } from "./passthrough";
import { ReasoningDetailWriter } from "./reasoning-details";
import { encodeChatUsage } from "./usage";

/**
 * Same-format Chat stream: each upstream chunk goes out as it arrives, with the gateway's id and
 * model, a role on the first delta, and the fields `passthrough.ts` describes. A `usage` or
 * `system_fingerprint` that is null (OpenAI sends both so) is left out: OpenRouter's clients
 * reject a null where they expect a usage object or a string. The chunks that
 * end the answer (the finish reason, the usage chunk, `[DONE]`) are held back until the
 * generation is recorded, then written with the usage the gateway charged.
 */

type ReasoningBlock = Extract<IRStreamBlock, { type: "reasoning" }>;

const CHUNK_OBJECT = "chat.completion.chunk";

const isPromptFilterChunk = (chunk: JsonObject): boolean => chunk.prompt_filter_results !== undefined && carriesNothing(chunk);

const frame = (chunk: JsonObject): string => `data: ${JSON.stringify(chunk)}\n\n`;

const firstChoice = (chunk: JsonObject): JsonObject | undefined => {
  const choice = Array.isArray(chunk.choices) ? chunk.choices.find(isFirstChoice) : undefined;
  return isJsonObject(choice) ? choice : undefined;
};

/** The finish reason, or the usage-only chunk that follows it: from here on the stream is its end. */
const endsAnswer = (chunk: JsonObject): boolean =>
  Boolean(firstChoice(chunk)?.finish_reason) || (isJsonObject(chunk.usage) && (!Array.isArray(chunk.choices) || chunk.choices.length === 0));

function mapFirstChoice(chunk: JsonObject, rewrite: (choice: JsonObject) => JsonObject): JsonObject {
  const choices = chunk.choices;
  if (!Array.isArray(choices)) return chunk;
  const at = choices.findIndex(isFirstChoice);
  const choice: unknown = choices[at];
  if (!isJsonObject(choice)) return chunk;
  const next = rewrite(choice);
  return next === choice ? chunk : { ...chunk, choices: choices.map((c, i) => (i === at ? next : c)) };
}

const opensToolCall = (part: IRStreamPart): boolean => part.type === "block-start" && part.block.type === "tool_call";

/** Reasoning text (which may need reasoning_details) or a new tool call (which may need an id) */
const needsDeltaRewrite = (parts: readonly IRStreamPart[]): boolean => parts.some((part) => part.type === "reasoning-delta" || opensToolCall(part));

class ChatPassthroughStream implements StreamWriter {
  private held: JsonObject[] = [];
  private roleSent = false;
  private done = false;
  private readonly details = new ReasoningDetailWriter();
  private readonly head: ChunkHead;
  /** open reasoning blocks by IR index, with the detail index their items share */
  private readonly reasoning = new Map<number, { block: ReasoningBlock; detailIndex?: number }>();

  constructor(private readonly ctx: EncodeContext) {
    this.head = new ChunkHead(ctx);
  }

  write(event: SseEvent | null, parts: readonly IRStreamPart[]): string {
    if (this.done || event === null) return "";
    const chunk = eventObject(event);
    // `[DONE]` is written by finish, an upstream error chunk by error; Azure OpenAI's opening chunk of
    // prompt_filter_results alone is left out, so every client's stream opens with a choice as OpenAI's does
    if (!chunk || parts.some((part) => part.type === "error") || isPromptFilterChunk(chunk)) return "";
    for (const part of parts) if (part.type === "block-start" && part.block.type === "reasoning") this.reasoning.set(part.index, { block: part.block });
    if (this.held.length > 0 || endsAnswer(chunk)) {
      this.held.push(this.rewrite(chunk, parts));
      return "";
    }
    // most chunks need their id and model only: those are rewritten in their own text
    const spliced = this.roleSent && !needsDeltaRewrite(parts) ? this.head.rewrite(event.data, chunk) : undefined;
    return spliced !== undefined ? `data: ${spliced}\n\n` : frame(this.rewrite(chunk, parts));
  }

  finish(part: IRFinishPart, settlement: Settlement): string {
    if (this.done) return "";
    this.done = true;
    let finished = false;
    let charged = false;
    const held = this.held.map((chunk) => {
      let out = chunk;
      if (firstChoice(out)?.finish_reason) {
        finished = true;
        out = mapFirstChoice(out, (choice) => ({
          ...choice,
          finish_reason: toChatFinishReason(part.finishReason),
          native_finish_reason: part.nativeFinishReason ?? null,
        }));
      }
      if (isJsonObject(out.usage)) {
        charged = true;
        out = { ...out, usage: encodeChatUsage(part.usage, settlement), ...withServiceMetadata(settlement) };
      }
      return frame(out);
    });
    const choice = { index: 0, delta: {}, finish_reason: toChatFinishReason(part.finishReason), native_finish_reason: part.nativeFinishReason ?? null };
    const finishChunk = finished ? "" : frame(chunkEnvelope(this.ctx, { choices: [choice] }));
    const usageChunk = charged ? "" : frame(settledUsageChunk(this.ctx, part.usage, settlement));
    return `${finishChunk + held.join("") + usageChunk}data: [DONE]\n\n`;
  }

  error(part: IRErrorPart): string {
    if (this.done) return "";
    this.done = true;
    return this.held.map(frame).join("") + errorChunk(this.ctx, part);
  }

  private rewrite(chunk: JsonObject, parts: readonly IRStreamPart[]): JsonObject {
    const { usage, system_fingerprint, ...rest } = chunk;
    const provider = this.ctx.provider === undefined ? {} : { provider: this.ctx.provider };
    // Azure OpenAI's asynchronous-filter chunks leave id, object and created empty ("", 0); OpenRouter's clients require them
    const envelope = rest.object === "" ? { object: CHUNK_OBJECT, created: this.ctx.created } : {};
    const kept = {
      ...rest,
      id: this.ctx.generationId,
      ...envelope,
      model: this.ctx.model,
      ...provider,
      ...(usage !== null ? { usage } : {}),
      ...(system_fingerprint !== null ? { system_fingerprint } : {}),
    };
    return mapFirstChoice(kept, (choice) => this.rewriteChoice(choice, parts));
  }

  private rewriteChoice(choice: JsonObject, parts: readonly IRStreamPart[]): JsonObject {
    if (!isJsonObject(choice.delta)) return choice;
    let delta = choice.delta;
    // the OpenAI SDK refuses a choice whose deltas never named the role
    if (!this.roleSent && delta.role === undefined) delta = { role: "assistant", ...delta };
    this.roleSent = true;
    if (parts.some((part) => part.type === "reasoning-delta")) delta = this.withReasoningDetails(delta, parts);
    if (parts.some(opensToolCall)) delta = withToolCallIds(delta, parts);
    return delta === choice.delta ? choice : { ...choice, delta };
  }

  /** Reasoning text in another spelling (`reasoning_content`, bare `reasoning`) also goes out as OpenRouter's reasoning_details. */
  private withReasoningDetails(delta: JsonObject, parts: readonly IRStreamPart[]): JsonObject {
    if (hasReasoningDetails(delta)) return delta;
    let text = "";
    const items = [];
    for (const part of parts) {
      const open = part.type === "reasoning-delta" ? this.reasoning.get(part.index) : undefined;
      if (!open || part.type !== "reasoning-delta") continue;
      open.detailIndex ??= this.details.reserve();
      items.push(this.details.textItem(open.block, part.text, undefined, open.detailIndex));
      text += part.text;
    }
    if (items.length === 0) return delta;
    return { ...delta, ...(typeof delta.reasoning === "string" ? {} : { reasoning: text }), reasoning_details: items };
  }
}

/** A tool call opened without an id (or type) gets the id the decoder gave it: clients need one to answer the call. */
function withToolCallIds(delta: JsonObject, parts: readonly IRStreamPart[]): JsonObject {
  const opened = parts.flatMap((part) => (part.type === "block-start" && part.block.type === "tool_call" ? [part.block.id] : []));
  if (opened.length === 0 || !Array.isArray(delta.tool_calls)) return delta;
  let changed = false;
  const calls = delta.tool_calls.map((call) => {
    // a call opens with its name; later deltas carry only arguments
    if (!isJsonObject(call) || !isJsonObject(call.function) || !call.function.name) return call;
    const id = opened.shift();
    const hasId = typeof call.id === "string" && call.id !== "";
    if (id === undefined || (hasId && call.type !== undefined)) return call;
    changed = true;
    return { ...call, id: hasId ? call.id : id, type: call.type ?? "function" };
  });
  return changed ? { ...delta, tool_calls: calls } : delta;
}

export const createChatPassthroughStream = (ctx: EncodeContext): StreamWriter => new ChatPassthroughStream(ctx);
