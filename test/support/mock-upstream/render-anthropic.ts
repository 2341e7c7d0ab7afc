// Anthropic Messages: the `message` JSON and the SSE event flow (message_start,
// ping, content_block_start/delta/stop, message_delta, message_stop), each with
// an `event:` line. input_tokens excludes cache reads and writes, as Anthropic reports it.

import { chunksOf, finishOf, joined, parseArguments, sse, usageOf } from "./turn-parts.ts";
import type { MockTurn, RenderContext, SseEvent } from "./types.ts";

function messageId(turn: MockTurn, ctx: RenderContext): string {
  return turn.id ?? `msg_mock${ctx.seq}`;
}

function stopReason(turn: MockTurn): string {
  // A refusal without an explicit finish ends the way Claude ends one.
  if (!turn.finish && turn.refusal !== undefined) return "refusal";
  switch (finishOf(turn)) {
    case "length":
      return "max_tokens";
    case "tool_calls":
      return "tool_use";
    case "stop_sequence":
      return "stop_sequence";
    case "content_filter":
      return "refusal";
    default:
      return "end_turn";
  }
}

function usageBody(turn: MockTurn) {
  const u = usageOf(turn);
  return {
    input_tokens: Math.max(0, u.input - u.cached - u.cacheWrite),
    cache_creation_input_tokens: u.cacheWrite,
    cache_read_input_tokens: u.cached,
    output_tokens: u.output,
  };
}

type Block = { start: Record<string, unknown>; deltas: Record<string, unknown>[]; final: Record<string, unknown> };

function blocks(turn: MockTurn): Block[] {
  const out: Block[] = [];
  const r = turn.reasoning;
  if (r && joined(r.text) !== "") {
    const deltas: Record<string, unknown>[] = chunksOf(r.text).map((thinking) => ({ type: "thinking_delta", thinking }));
    if (r.signature !== undefined) deltas.push({ type: "signature_delta", signature: r.signature });
    out.push({
      start: { type: "thinking", thinking: "", signature: "" },
      deltas,
      final: { type: "thinking", thinking: joined(r.text), signature: r.signature ?? "" },
    });
  }
  if (r?.encrypted !== undefined) {
    const block = { type: "redacted_thinking", data: r.encrypted };
    out.push({ start: block, deltas: [], final: block });
  }
  const textPieces = [...chunksOf(turn.text), ...(turn.refusal === undefined ? [] : [turn.refusal])];
  if (turn.text !== undefined || turn.refusal !== undefined) {
    out.push({
      start: { type: "text", text: "" },
      deltas: textPieces.map((text) => ({ type: "text_delta", text })),
      final: { type: "text", text: textPieces.join("") },
    });
  }
  for (const call of turn.toolCalls ?? []) {
    const base = { type: "tool_use", id: call.id, name: call.name };
    out.push({
      start: { ...base, input: {} },
      deltas: chunksOf(call.arguments).map((partial_json) => ({ type: "input_json_delta", partial_json })),
      final: { ...base, input: parseArguments(call.arguments) },
    });
  }
  return out;
}

function messageObject(turn: MockTurn, ctx: RenderContext, content: unknown[], done: boolean) {
  const usage = usageBody(turn);
  return {
    id: messageId(turn, ctx),
    type: "message",
    role: "assistant",
    model: ctx.model,
    content,
    stop_reason: done ? stopReason(turn) : null,
    stop_sequence: done && stopReason(turn) === "stop_sequence" ? (turn.stopSequence ?? null) : null,
    // message_start reports the input side and a provisional output count, as the real API does.
    // cache_creation splits writes by TTL; the mock reports every write as a 5-minute one.
    usage: {
      ...usage,
      ...(done ? {} : { output_tokens: 1 }),
      cache_creation: { ephemeral_5m_input_tokens: usage.cache_creation_input_tokens, ephemeral_1h_input_tokens: 0 },
      service_tier: "standard",
    },
  };
}

export function renderAnthropicJson(turn: MockTurn, ctx: RenderContext): unknown {
  return messageObject(
    turn,
    ctx,
    blocks(turn).map((b) => b.final),
    true,
  );
}

export function renderAnthropicEvents(turn: MockTurn, ctx: RenderContext): SseEvent[] {
  const ev = (data: Record<string, unknown>) => sse(data, data.type as string);
  const events: SseEvent[] = [ev({ type: "message_start", message: messageObject(turn, ctx, [], false) }), ev({ type: "ping" })];
  blocks(turn).forEach((block, index) => {
    events.push(ev({ type: "content_block_start", index, content_block: block.start }));
    for (const delta of block.deltas) events.push(ev({ type: "content_block_delta", index, delta }));
    events.push(ev({ type: "content_block_stop", index }));
  });
  const stop = stopReason(turn);
  events.push(
    ev({
      type: "message_delta",
      delta: { stop_reason: stop, stop_sequence: stop === "stop_sequence" ? (turn.stopSequence ?? null) : null },
      usage: usageBody(turn),
    }),
  );
  events.push(ev({ type: "message_stop" }));
  return events;
}

/** Anthropic's mid-stream error event (e.g. overloaded_error); the stream ends after it. */
export function renderAnthropicStreamError(message: string, type: string): SseEvent[] {
  return [sse({ type: "error", error: { type, message } }, "error")];
}
