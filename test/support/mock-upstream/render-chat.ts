// OpenAI Chat Completions: `chat.completion` JSON and `chat.completion.chunk` SSE,
// as api.openai.com sends them (usage chunk only with stream_options.include_usage).

import { chunksOf, finishOf, joined, sse, usageOf } from "./turn-parts.ts";
import type { MockTurn, RenderContext, SseEvent } from "./types.ts";

const FINISH: Record<string, string> = {
  stop: "stop",
  length: "length",
  tool_calls: "tool_calls",
  content_filter: "content_filter",
  stop_sequence: "stop",
};

function chatId(turn: MockTurn, ctx: RenderContext): string {
  return turn.id ?? `chatcmpl-mock${ctx.seq}`;
}

function usageBody(turn: MockTurn) {
  const u = usageOf(turn);
  const promptDetails: Record<string, number> = { cached_tokens: u.cached, audio_tokens: 0 };
  // Optional in OpenAI's chat usage (required in Responses): sent only when the turn sets it.
  if (turn.usage?.cacheWrite !== undefined) promptDetails.cache_write_tokens = u.cacheWrite;
  return {
    prompt_tokens: u.input,
    completion_tokens: u.output,
    total_tokens: u.input + u.output,
    prompt_tokens_details: promptDetails,
    completion_tokens_details: {
      reasoning_tokens: u.reasoning,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function reasoningField(turn: MockTurn): string {
  return turn.reasoning?.chatField ?? "reasoning_content";
}

export function renderChatJson(turn: MockTurn, ctx: RenderContext): unknown {
  const message: Record<string, unknown> = {
    role: "assistant",
    content: turn.text === undefined ? null : joined(turn.text),
    refusal: turn.refusal ?? null,
    annotations: [],
  };
  if (turn.reasoning) message[reasoningField(turn)] = joined(turn.reasoning.text);
  if (turn.toolCalls?.length) {
    message.tool_calls = turn.toolCalls.map((c) => ({
      id: c.id,
      type: "function",
      function: { name: c.name, arguments: joined(c.arguments) },
    }));
  }
  const body: Record<string, unknown> = {
    id: chatId(turn, ctx),
    object: "chat.completion",
    created: ctx.created,
    model: ctx.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: FINISH[finishOf(turn)] }],
    service_tier: "default",
    system_fingerprint: null,
  };
  if (!turn.omitUsage) body.usage = usageBody(turn);
  return body;
}

function wantsUsage(ctx: RenderContext): boolean {
  return ctx.body?.stream_options?.include_usage === true;
}

/** The stream's chunks as objects, `[DONE]` last: Azure's renderer reshapes them before they are serialised. */
export function renderChatChunks(turn: MockTurn, ctx: RenderContext): (Record<string, unknown> | "[DONE]")[] {
  const includeUsage = wantsUsage(ctx);
  const envelope = () => ({
    id: chatId(turn, ctx),
    object: "chat.completion.chunk",
    created: ctx.created,
    model: ctx.model,
    service_tier: "default",
    system_fingerprint: null,
  });
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => {
    const c: Record<string, unknown> = { ...envelope(), choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] };
    // With include_usage every chunk carries `usage: null` until the final usage chunk.
    if (includeUsage) c.usage = null;
    return c;
  };
  const events: (Record<string, unknown> | "[DONE]")[] = [chunk({ role: "assistant", content: "", refusal: null })];
  if (turn.reasoning) {
    const field = reasoningField(turn);
    for (const piece of chunksOf(turn.reasoning.text)) events.push(chunk({ [field]: piece }));
  }
  for (const piece of chunksOf(turn.text)) events.push(chunk({ content: piece }));
  if (turn.refusal !== undefined) events.push(chunk({ refusal: turn.refusal }));
  (turn.toolCalls ?? []).forEach((call, index) => {
    events.push(chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] }));
    for (const piece of chunksOf(call.arguments)) {
      events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  events.push(chunk({}, FINISH[finishOf(turn)]));
  if (includeUsage && !turn.omitUsage) events.push({ ...envelope(), choices: [], usage: usageBody(turn) });
  events.push("[DONE]");
  return events;
}

export function renderChatEvents(turn: MockTurn, ctx: RenderContext): SseEvent[] {
  return renderChatChunks(turn, ctx).map((chunk) => (chunk === "[DONE]" ? { data: chunk } : sse(chunk)));
}

/** OpenAI's mid-stream error: a data line with an `error` object, then the stream ends without [DONE]. */
export function renderChatStreamError(message: string, type: string): SseEvent[] {
  return [sse({ error: { message, type, param: null, code: null } })];
}
