import type { SseEvent } from "../../../src/ir/codec";

/**
 * What OpenAI's Responses API streams for: a reasoning item with a summary and encrypted content,
 * a message, and two function calls whose arguments arrive in the given chunks.
 */
export function upstreamEvents(argsA: string[], argsB: string[]): SseEvent[] {
  const events: Array<Record<string, unknown>> = [];
  const add = (type: string, payload: Record<string, unknown>) => events.push({ type, sequence_number: events.length, ...payload });
  const base = { id: "resp_up", object: "response", created_at: 1, model: "gpt-5-2025-08-07", output: [] };
  add("response.created", { response: { ...base, status: "in_progress" } });
  add("response.in_progress", { response: { ...base, status: "in_progress" } });

  add("response.output_item.added", { output_index: 0, item: { id: "rs_up", type: "reasoning", summary: [] } });
  const route0 = { item_id: "rs_up", output_index: 0, summary_index: 0 };
  add("response.reasoning_summary_part.added", { ...route0, part: { type: "summary_text", text: "" } });
  add("response.reasoning_summary_text.delta", { ...route0, delta: "**Plan** " });
  add("response.reasoning_summary_text.delta", { ...route0, delta: "look up both." });
  add("response.reasoning_summary_text.done", { ...route0, text: "**Plan** look up both." });
  add("response.reasoning_summary_part.done", { ...route0, part: { type: "summary_text", text: "**Plan** look up both." } });
  const reasoningItem = {
    id: "rs_up",
    type: "reasoning",
    summary: [{ type: "summary_text", text: "**Plan** look up both." }],
    encrypted_content: "gAAAAB-encrypted",
  };
  add("response.output_item.done", { output_index: 0, item: reasoningItem });

  const message = { id: "msg_up", type: "message", status: "in_progress", role: "assistant", content: [] };
  add("response.output_item.added", { output_index: 1, item: message });
  const route1 = { item_id: "msg_up", output_index: 1, content_index: 0 };
  add("response.content_part.added", { ...route1, part: { type: "output_text", annotations: [], logprobs: [], text: "" } });
  for (const delta of ["Checking", " the weather", "."]) add("response.output_text.delta", { ...route1, delta, logprobs: [] });
  add("response.output_text.done", { ...route1, text: "Checking the weather.", logprobs: [] });
  const textPart = { type: "output_text", annotations: [], logprobs: [], text: "Checking the weather." };
  add("response.content_part.done", { ...route1, part: textPart });
  add("response.output_item.done", { output_index: 1, item: { ...message, status: "completed", content: [textPart] } });

  const calls = [
    { id: "fc_a", call_id: "call_a", args: argsA },
    { id: "fc_b", call_id: "call_b", args: argsB },
  ];
  calls.forEach((call, i) => {
    const outputIndex = 2 + i;
    const item = { id: call.id, type: "function_call", status: "in_progress", arguments: "", call_id: call.call_id, name: "get_weather" };
    add("response.output_item.added", { output_index: outputIndex, item });
    for (const delta of call.args) add("response.function_call_arguments.delta", { item_id: call.id, output_index: outputIndex, delta });
    const full = call.args.join("");
    add("response.function_call_arguments.done", { item_id: call.id, output_index: outputIndex, arguments: full });
    add("response.output_item.done", { output_index: outputIndex, item: { ...item, status: "completed", arguments: full } });
  });

  add("response.completed", {
    response: {
      ...base,
      status: "completed",
      usage: {
        input_tokens: 300,
        input_tokens_details: { cached_tokens: 128 },
        output_tokens: 150,
        output_tokens_details: { reasoning_tokens: 64 },
        total_tokens: 450,
      },
    },
  });
  return events.map((event) => ({ event: String(event.type), data: JSON.stringify(event) }));
}
