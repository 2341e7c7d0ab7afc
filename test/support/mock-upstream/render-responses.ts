// OpenAI Responses: the `response` JSON object and the full streaming grammar
// (each SSE event has an `event:` line and a `sequence_number`). One builder
// produces both, so the streamed items always equal the JSON output items.

import { chunksOf, finishOf, joined, sse, usageOf } from "./turn-parts.ts";
import type { MockTurn, RenderContext, SseEvent } from "./types.ts";

type Item = Record<string, unknown>;

function responseId(turn: MockTurn, ctx: RenderContext): string {
  return turn.id ?? `resp_mock${ctx.seq}`;
}

function incompleteReason(turn: MockTurn): string | null {
  const finish = finishOf(turn);
  if (finish === "length") return "max_output_tokens";
  if (finish === "content_filter") return "content_filter";
  return null;
}

function usageBody(turn: MockTurn) {
  if (turn.omitUsage) return null;
  const u = usageOf(turn);
  return {
    input_tokens: u.input,
    input_tokens_details: { cached_tokens: u.cached, cache_write_tokens: u.cacheWrite },
    output_tokens: u.output,
    output_tokens_details: { reasoning_tokens: u.reasoning },
    total_tokens: u.input + u.output,
  };
}

function responseObject(turn: MockTurn, ctx: RenderContext, status: string, output: Item[], final: boolean) {
  const b = ctx.body ?? {};
  const reason = final ? incompleteReason(turn) : null;
  return {
    id: responseId(turn, ctx),
    object: "response",
    created_at: ctx.created,
    status,
    background: false,
    error: null,
    incomplete_details: reason ? { reason } : null,
    instructions: b.instructions ?? null,
    max_output_tokens: b.max_output_tokens ?? null,
    model: ctx.model,
    output,
    parallel_tool_calls: b.parallel_tool_calls ?? true,
    previous_response_id: b.previous_response_id ?? null,
    reasoning: { effort: b.reasoning?.effort ?? null, summary: b.reasoning?.summary ?? null },
    store: b.store ?? true,
    temperature: b.temperature ?? 1,
    text: b.text ?? { format: { type: "text" } },
    tool_choice: b.tool_choice ?? "auto",
    tools: b.tools ?? [],
    top_p: b.top_p ?? 1,
    truncation: b.truncation ?? "disabled",
    usage: final ? usageBody(turn) : null,
    user: null,
    metadata: b.metadata ?? {},
  };
}

/** Builds the output items and, alongside, the events that stream them. */
function build(turn: MockTurn, ctx: RenderContext) {
  const events: Array<Record<string, unknown>> = [];
  const output: Item[] = [];
  const emit = (e: Record<string, unknown>) => events.push(e);
  const itemStatus = incompleteReason(turn) ? "incomplete" : "completed";

  const addItem = (added: Item, stream: (item_id: string, output_index: number) => void, done: Item) => {
    const output_index = output.length;
    const item_id = added.id as string;
    emit({ type: "response.output_item.added", output_index, item: added });
    stream(item_id, output_index);
    emit({ type: "response.output_item.done", output_index, item: done });
    output.push(done);
  };

  const r = turn.reasoning;
  if (r) {
    const id = `rs_mock${ctx.seq}`;
    const text = joined(r.text);
    const enc = r.encrypted === undefined ? {} : { encrypted_content: r.encrypted };
    const raw = r.summary === false;
    const summary = raw || text === "" ? [] : [{ type: "summary_text", text }];
    const content = raw && text !== "" ? { content: [{ type: "reasoning_text", text }] } : {};
    addItem(
      { id, type: "reasoning", summary: [], ...enc },
      (item_id, output_index) => {
        if (text === "") return;
        if (raw) {
          const at = { item_id, output_index, content_index: 0 };
          emit({ type: "response.content_part.added", ...at, part: { type: "reasoning_text", text: "" } });
          for (const delta of chunksOf(r.text)) emit({ type: "response.reasoning_text.delta", ...at, delta });
          emit({ type: "response.reasoning_text.done", ...at, text });
          emit({ type: "response.content_part.done", ...at, part: { type: "reasoning_text", text } });
          return;
        }
        const at = { item_id, output_index, summary_index: 0 };
        emit({ type: "response.reasoning_summary_part.added", ...at, part: { type: "summary_text", text: "" } });
        for (const delta of chunksOf(r.text)) emit({ type: "response.reasoning_summary_text.delta", ...at, delta });
        emit({ type: "response.reasoning_summary_text.done", ...at, text });
        emit({ type: "response.reasoning_summary_part.done", ...at, part: { type: "summary_text", text } });
      },
      { id, type: "reasoning", summary, ...content, ...enc },
    );
  }

  if (turn.text !== undefined || turn.refusal !== undefined) {
    const id = `msg_mock${ctx.seq}`;
    const parts: Item[] = [];
    if (turn.text !== undefined) parts.push({ type: "output_text", annotations: [], logprobs: [], text: joined(turn.text) });
    if (turn.refusal !== undefined) parts.push({ type: "refusal", refusal: turn.refusal });
    addItem(
      { id, type: "message", status: "in_progress", content: [], role: "assistant" },
      (item_id, output_index) => {
        parts.forEach((part, content_index) => {
          const at = { item_id, output_index, content_index };
          if (part.type === "output_text") {
            emit({ type: "response.content_part.added", ...at, part: { ...part, text: "" } });
            for (const delta of chunksOf(turn.text)) emit({ type: "response.output_text.delta", ...at, delta, logprobs: [] });
            emit({ type: "response.output_text.done", ...at, text: part.text, logprobs: [] });
          } else {
            emit({ type: "response.content_part.added", ...at, part: { type: "refusal", refusal: "" } });
            emit({ type: "response.refusal.delta", ...at, delta: part.refusal });
            emit({ type: "response.refusal.done", ...at, refusal: part.refusal });
          }
          emit({ type: "response.content_part.done", ...at, part });
        });
      },
      { id, type: "message", status: itemStatus, content: parts, role: "assistant" },
    );
  }

  (turn.toolCalls ?? []).forEach((call, i) => {
    const id = `fc_mock${ctx.seq}_${i}`;
    const args = joined(call.arguments);
    const base = { id, type: "function_call", call_id: call.id, name: call.name };
    addItem(
      { ...base, status: "in_progress", arguments: "" },
      (item_id, output_index) => {
        for (const delta of chunksOf(call.arguments)) {
          emit({ type: "response.function_call_arguments.delta", item_id, output_index, delta });
        }
        emit({ type: "response.function_call_arguments.done", item_id, output_index, arguments: args });
      },
      { ...base, status: "completed", arguments: args },
    );
  });
  return { events, output };
}

function finalStatus(turn: MockTurn): string {
  return incompleteReason(turn) ? "incomplete" : "completed";
}

export function renderResponsesJson(turn: MockTurn, ctx: RenderContext): unknown {
  return responseObject(turn, ctx, finalStatus(turn), build(turn, ctx).output, true);
}

function numbered(list: Array<Record<string, unknown>>): SseEvent[] {
  return list.map((e, sequence_number) => sse({ ...e, sequence_number }, e.type as string));
}

export function renderResponsesEvents(turn: MockTurn, ctx: RenderContext): SseEvent[] {
  const { events, output } = build(turn, ctx);
  const status = finalStatus(turn);
  return numbered([
    { type: "response.created", response: responseObject(turn, ctx, "in_progress", [], false) },
    { type: "response.in_progress", response: responseObject(turn, ctx, "in_progress", [], false) },
    ...events,
    { type: `response.${status}`, response: responseObject(turn, ctx, status, output, true) },
  ]);
}

/** `response.failed` carrying the error, as the Responses API ends a stream that failed mid-way. */
export function renderResponsesStreamError(turn: MockTurn, ctx: RenderContext, sequenceNumber: number, message: string, type: string): SseEvent[] {
  const response = { ...responseObject(turn, ctx, "failed", [], false), error: { code: type, message } };
  return [sse({ type: "response.failed", response, sequence_number: sequenceNumber }, "response.failed")];
}
