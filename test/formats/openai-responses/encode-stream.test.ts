import { afterAll, beforeAll, describe, expect, setSystemTime, test } from "bun:test";
import { openaiResponsesInbound, openaiResponsesUpstream } from "../../../src/formats/openai-responses";
import type { IRStreamPart } from "../../../src/ir/types";
import { sseJsonEvents } from "../../support/sse";
import { encodeParts } from "../encode-parts";
import { ctx, ctxWithoutSummary, encodedUsage, expectedOutput, irResult, irStream, NOW, settlement, usage } from "./fixtures";

beforeAll(() => setSystemTime(NOW));
afterAll(() => setSystemTime());

const encodeAll = (parts: IRStreamPart[], context = ctx) => encodeParts(openaiResponsesInbound.createStreamEncoder(context), parts, settlement);

const text = (index: number, ...deltas: string[]): IRStreamPart[] => [
  { type: "block-start", index, block: { type: "text" } },
  ...deltas.map((delta): IRStreamPart => ({ type: "text-delta", index, text: delta })),
  { type: "block-end", index },
];

describe("createStreamEncoder", () => {
  test("a text answer: the exact event sequence", () => {
    const events = sseJsonEvents(
      encodeAll([{ type: "start", id: "up", model: "m" }, ...text(0, "Hel", "lo"), { type: "finish", finishReason: "stop", usage }]),
      "named",
    );
    const route = { item_id: "msg_gen-1_0", output_index: 0, content_index: 0 };
    const final = { type: "output_text", text: "Hello", annotations: [] };
    const message = { type: "message", id: "msg_gen-1_0", role: "assistant" };
    expect(events.map((e) => e.event)).toEqual(events.map((e) => e.data.type));
    expect(events.map((e) => e.data.sequence_number)).toEqual(events.map((_, i) => i));
    const withoutResponses = events.map(({ data }) => {
      const { sequence_number: _sequence, ...rest } = data;
      return "response" in rest ? { type: rest.type, status: rest.response.status, output: rest.response.output } : rest;
    });
    expect(withoutResponses).toEqual([
      { type: "response.created", status: "in_progress", output: [] },
      { type: "response.in_progress", status: "in_progress", output: [] },
      { type: "response.output_item.added", output_index: 0, item: { ...message, status: "in_progress", content: [] } },
      { type: "response.content_part.added", ...route, part: { type: "output_text", text: "", annotations: [] } },
      { type: "response.output_text.delta", ...route, delta: "Hel", logprobs: [] },
      { type: "response.output_text.delta", ...route, delta: "lo", logprobs: [] },
      { type: "response.output_text.done", ...route, text: "Hello", logprobs: [] },
      { type: "response.content_part.done", ...route, part: final },
      { type: "response.output_item.done", output_index: 0, item: { ...message, status: "completed", content: [final] } },
      { type: "response.completed", status: "completed", output: [{ ...message, status: "completed", content: [final] }] },
    ]);
    const created = events[0]!.data.response;
    expect(created).toMatchObject({ id: "gen-1", object: "response", created_at: 1_700_000_000, completed_at: null, usage: null, error: null });
  });

  test("the completed response equals encodeResult of the same content", () => {
    const events = sseJsonEvents(encodeAll(irStream), "named");
    const completed = events.at(-1)!.data;
    expect(completed.type).toBe("response.completed");
    expect(completed.response.output).toEqual(expectedOutput);
    expect(completed.response.usage).toEqual(encodedUsage);
    const nonStreamed = openaiResponsesInbound.encodeResult(irResult, ctx, settlement);
    expect(completed.response).toEqual(nonStreamed);
  });

  test("reasoning summary and function call events", () => {
    const events = sseJsonEvents(encodeAll(irStream), "named").map((e) => e.data);
    const reasoningRoute = { item_id: "rs_up", output_index: 0, summary_index: 0 };
    expect(events.slice(2, 9).map(({ sequence_number: _s, ...rest }) => rest)).toEqual([
      { type: "response.output_item.added", output_index: 0, item: { type: "reasoning", id: "rs_up", summary: [] } },
      { type: "response.reasoning_summary_part.added", ...reasoningRoute, part: { type: "summary_text", text: "" } },
      { type: "response.reasoning_summary_text.delta", ...reasoningRoute, delta: "Need two " },
      { type: "response.reasoning_summary_text.delta", ...reasoningRoute, delta: "lookups." },
      { type: "response.reasoning_summary_text.done", ...reasoningRoute, text: "Need two lookups." },
      { type: "response.reasoning_summary_part.done", ...reasoningRoute, part: { type: "summary_text", text: "Need two lookups." } },
      { type: "response.output_item.done", output_index: 0, item: expectedOutput[0] },
    ]);
    const callRoute = { item_id: "fc_gen-1_2", output_index: 2 };
    const call = { type: "function_call", id: "fc_gen-1_2", call_id: "call_a", name: "get_weather" };
    expect(events.slice(16, 21).map(({ sequence_number: _s, ...rest }) => rest)).toEqual([
      { type: "response.output_item.added", output_index: 2, item: { ...call, arguments: "", status: "in_progress" } },
      { type: "response.function_call_arguments.delta", ...callRoute, delta: '{"city":' },
      { type: "response.function_call_arguments.delta", ...callRoute, delta: '"Paris"}' },
      { type: "response.function_call_arguments.done", ...callRoute, name: "get_weather", arguments: '{"city":"Paris"}' },
      { type: "response.output_item.done", output_index: 2, item: expectedOutput[2] },
    ]);
  });

  test("raw reasoning uses reasoning_text events; refusals share the message", () => {
    const events = sseJsonEvents(
      encodeAll(
        [
          { type: "block-start", index: 0, block: { type: "reasoning", origin: "anthropic-messages" } },
          { type: "reasoning-delta", index: 0, text: "hmm" },
          { type: "reasoning-signature", index: 0, signature: "SIG" },
          { type: "block-end", index: 0 },
          ...text(1, "a"),
          { type: "block-start", index: 2, block: { type: "refusal" } },
          { type: "refusal-delta", index: 2, text: "no" },
          { type: "block-end", index: 2 },
          { type: "finish", finishReason: "length", usage },
        ],
        ctxWithoutSummary,
      ),
      "named",
    ).map((e) => e.data);
    expect(events.map((e) => e.type)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      "response.reasoning_text.delta",
      "response.reasoning_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.content_part.added",
      "response.refusal.delta",
      "response.refusal.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.incomplete",
    ]);
    expect(events[3]).toMatchObject({ item_id: "rs_gen-1_0", content_index: 0, part: { type: "reasoning_text", text: "" } });
    expect(events[13]).toMatchObject({ item_id: "msg_gen-1_1", output_index: 1, content_index: 1, part: { type: "refusal", refusal: "" } });
    const incomplete = events.at(-1)!.response;
    expect(incomplete.status).toBe("incomplete");
    expect(incomplete.incomplete_details).toEqual({ reason: "max_output_tokens" });
    expect(incomplete.output[0]).toEqual({
      type: "reasoning",
      id: "rs_gen-1_0",
      summary: [],
      content: [{ type: "reasoning_text", text: "hmm" }],
      encrypted_content: expect.stringMatching(/^gwrs1\./),
    });
    expect(incomplete.output[1].content).toEqual([
      { type: "output_text", text: "a", annotations: [] },
      { type: "refusal", refusal: "no" },
    ]);
  });

  test("an error mid-stream is response.failed with the output so far", () => {
    const events = sseJsonEvents(
      encodeAll([
        { type: "start", id: "u", model: "m" },
        { type: "block-start", index: 0, block: { type: "text" } },
        { type: "text-delta", index: 0, text: "Hal" },
        { type: "error", status: 429, message: "Rate limited upstream" },
        ...text(1, "ignored"),
      ]),
      "named",
    ).map((e) => e.data);
    const failed = events.at(-1)!;
    expect(failed.type).toBe("response.failed");
    expect(failed.sequence_number).toBe(events.length - 1);
    expect(failed.response).toMatchObject({
      status: "failed",
      error: { code: "rate_limit_exceeded", message: "Rate limited upstream" },
      error_type: "rate_limit_exceeded",
      completed_at: null,
      usage: null,
      output: [
        {
          type: "message",
          id: "msg_gen-1_0",
          role: "assistant",
          status: "in_progress",
          content: [{ type: "output_text", text: "Hal", annotations: [] }],
        },
      ],
    });
  });

  test("a finish with reason error is response.failed carrying the settlement's service metadata", () => {
    const encoder = openaiResponsesInbound.createStreamEncoder(ctx);
    const sse = encodeParts(encoder, [...text(0, "Hal"), { type: "finish", finishReason: "error", usage }], {
      ...settlement,
      serviceMetadata: { provider: "openai" },
    });
    const failed = sseJsonEvents(sse, "named").at(-1)!.data;
    expect(failed.type).toBe("response.failed");
    expect(failed.response).toMatchObject({ status: "failed", error: { code: "server_error" }, usage: null, service_metadata: { provider: "openai" } });
  });

  test("an error before anything else still opens the response first", () => {
    const events = sseJsonEvents(encodeAll([{ type: "error", status: 400, message: "Bad prompt", errorType: "invalid_prompt" }]), "named").map((e) => e.data);
    expect(events.map((e) => e.type)).toEqual(["response.created", "response.in_progress", "response.failed"]);
    expect(events[2]!.response.error).toEqual({ code: "invalid_prompt", message: "Bad prompt" });
    expect(events[2]!.response.error_type).toBe("invalid_prompt");
  });

  test("round trip: encoded events decode back to the same IR parts", () => {
    const decoder = openaiResponsesUpstream.createStreamDecoder();
    const sse = encodeAll(irStream);
    const decoded = sseJsonEvents(sse, "named").flatMap(({ event, data }) => decoder.push({ event, data: JSON.stringify(data) }));
    const expected = irStream.map((part): IRStreamPart => {
      if (part.type === "start") return { type: "start", id: "gen-1", model: "openai/gpt-5" };
      if (part.type === "finish") {
        // Prices are the gateway's own and do not travel upstream-ward.
        return { ...part, nativeFinishReason: "completed", usage };
      }
      return part;
    });
    expect(decoded).toEqual(expected);
    expect(decoder.finished).toBe(true);
  });
});
