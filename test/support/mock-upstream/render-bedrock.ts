// Amazon Bedrock Converse: the JSON answer, and the ConverseStream events (messageStart,
// contentBlockStart for tool use only, contentBlockDelta, contentBlockStop, messageStop, then
// metadata with the usage) as payloads named by their :event-type; bedrock-frames.ts frames them.
// inputTokens excludes cache reads and writes, as Bedrock reports it.

import { chunksOf, finishOf, joined, parseArguments, usageOf } from "./turn-parts.ts";
import type { MockTurn, RenderContext, SseEvent } from "./types.ts";

function stopReason(turn: MockTurn): string {
  if (!turn.finish && turn.refusal !== undefined) return "content_filtered";
  switch (finishOf(turn)) {
    case "length":
      return "max_tokens";
    case "tool_calls":
      return "tool_use";
    case "stop_sequence":
      return "stop_sequence";
    case "content_filter":
      return "content_filtered";
    default:
      return "end_turn";
  }
}

function usageBody(turn: MockTurn) {
  const u = usageOf(turn);
  const input = Math.max(0, u.input - u.cached - u.cacheWrite);
  return { inputTokens: input, outputTokens: u.output, totalTokens: u.input + u.output, cacheReadInputTokens: u.cached, cacheWriteInputTokens: u.cacheWrite };
}

/** Claude names the stop sequence under the path the request asked for (`/delta/stop_sequence`). */
function responseFields(turn: MockTurn, ctx: RenderContext): Record<string, unknown> | undefined {
  const asked = Array.isArray(ctx.body?.additionalModelResponseFieldPaths) && ctx.body.additionalModelResponseFieldPaths.includes("/delta/stop_sequence");
  if (!asked) return undefined;
  return { delta: { stop_sequence: stopReason(turn) === "stop_sequence" ? (turn.stopSequence ?? null) : null } };
}

type Block = { final: Record<string, unknown>; start?: Record<string, unknown>; deltas: Record<string, unknown>[] };

function blocks(turn: MockTurn): Block[] {
  const out: Block[] = [];
  const r = turn.reasoning;
  if (r && joined(r.text) !== "") {
    const deltas: Record<string, unknown>[] = chunksOf(r.text).map((text) => ({ reasoningContent: { text } }));
    if (r.signature !== undefined) deltas.push({ reasoningContent: { signature: r.signature } });
    const reasoningText: Record<string, unknown> = { text: joined(r.text) };
    if (r.signature !== undefined) reasoningText.signature = r.signature;
    out.push({ final: { reasoningContent: { reasoningText } }, deltas });
  }
  if (r?.encrypted !== undefined)
    out.push({ final: { reasoningContent: { redactedContent: r.encrypted } }, deltas: [{ reasoningContent: { redactedContent: r.encrypted } }] });
  const textPieces = [...chunksOf(turn.text), ...(turn.refusal === undefined ? [] : [turn.refusal])];
  if (turn.text !== undefined || turn.refusal !== undefined) out.push({ final: { text: textPieces.join("") }, deltas: textPieces.map((text) => ({ text })) });
  for (const call of turn.toolCalls ?? []) {
    out.push({
      final: { toolUse: { toolUseId: call.id, name: call.name, input: parseArguments(call.arguments) } },
      start: { toolUse: { toolUseId: call.id, name: call.name } },
      deltas: chunksOf(call.arguments).map((input) => ({ toolUse: { input } })),
    });
  }
  return out;
}

export function renderBedrockJson(turn: MockTurn, ctx: RenderContext): unknown {
  const fields = responseFields(turn, ctx);
  return {
    output: { message: { role: "assistant", content: blocks(turn).map((b) => b.final) } },
    stopReason: stopReason(turn),
    usage: usageBody(turn),
    metrics: { latencyMs: 42 },
    ...(fields ? { additionalModelResponseFields: fields } : {}),
  };
}

/** Bedrock pads each event with a `p` field of varying length (so sizes say nothing of the content). */
const event = (name: string, payload: Record<string, unknown>): SseEvent => ({
  event: name,
  data: JSON.stringify({ ...payload, p: "abcdefghijklmnop".slice(0, 1 + (name.length % 16)) }),
});

export function renderBedrockEvents(turn: MockTurn, ctx: RenderContext): SseEvent[] {
  const events: SseEvent[] = [event("messageStart", { role: "assistant" })];
  blocks(turn).forEach((block, contentBlockIndex) => {
    if (block.start) events.push(event("contentBlockStart", { contentBlockIndex, start: block.start }));
    for (const delta of block.deltas) events.push(event("contentBlockDelta", { contentBlockIndex, delta }));
    events.push(event("contentBlockStop", { contentBlockIndex }));
  });
  const fields = responseFields(turn, ctx);
  events.push(event("messageStop", { stopReason: stopReason(turn), ...(fields ? { additionalModelResponseFields: fields } : {}) }));
  events.push(event("metadata", { usage: usageBody(turn), metrics: { latencyMs: 42 } }));
  return events;
}

/** An exception frame (`:message-type: exception`) in place of the rest of the stream. */
export function renderBedrockStreamError(message: string, type: string): SseEvent[] {
  return [{ event: type, data: JSON.stringify({ message }) }];
}

/** Bedrock's error body, `{message}`; the type travels in the x-amzn-errortype header. */
export const BEDROCK_ERROR_TYPE: Record<number, string> = {
  400: "ValidationException",
  403: "AccessDeniedException",
  404: "ResourceNotFoundException",
  408: "ModelTimeoutException",
  424: "ModelErrorException",
  429: "ThrottlingException",
  500: "InternalServerException",
  503: "ServiceUnavailableException",
};

export const bedrockErrorType = (status: number): string => BEDROCK_ERROR_TYPE[status] ?? (status >= 500 ? "InternalServerException" : "ValidationException");

export function bedrockErrorBody(status: number): unknown {
  return { message: `mock ${bedrockErrorType(status)}` };
}
