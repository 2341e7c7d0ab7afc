import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { openaiResponsesUpstream } from "../../../src/formats/openai-responses";
import type { SseEvent } from "../../../src/ir/codec";
import type { IRStreamPart } from "../../../src/ir/types";
import { decodeAll } from "../decode-events";
import { upstreamEvents } from "./upstream-events";

function decodeStream(events: SseEvent[]): { parts: IRStreamPart[]; finished: boolean } {
  const decoder = openaiResponsesUpstream.createStreamDecoder();
  return { parts: decodeAll(decoder, events), finished: decoder.finished };
}

const event = (payload: Record<string, unknown>): SseEvent => ({ data: JSON.stringify(payload) });

describe("createStreamDecoder", () => {
  test("a realistic stream decodes to the exact IR parts", () => {
    const { parts, finished } = decodeStream(upstreamEvents(['{"ci', 'ty":', '"Par', 'is"', "}"], ["{", '"city"', ':"Ro', 'me"}']));
    expect(finished).toBe(true);
    expect(parts).toEqual([
      { type: "start", id: "resp_up", model: "gpt-5-2025-08-07" },
      { type: "block-start", index: 0, block: { type: "reasoning", origin: "openai-responses", id: "rs_up", summary: true } },
      { type: "reasoning-delta", index: 0, text: "**Plan** " },
      { type: "reasoning-delta", index: 0, text: "look up both." },
      { type: "reasoning-encrypted", index: 0, data: "gAAAAB-encrypted" },
      { type: "block-end", index: 0 },
      { type: "block-start", index: 1, block: { type: "text" } },
      { type: "text-delta", index: 1, text: "Checking" },
      { type: "text-delta", index: 1, text: " the weather" },
      { type: "text-delta", index: 1, text: "." },
      { type: "block-end", index: 1 },
      { type: "block-start", index: 2, block: { type: "tool_call", id: "call_a", name: "get_weather" } },
      { type: "tool-args-delta", index: 2, delta: '{"ci' },
      { type: "tool-args-delta", index: 2, delta: 'ty":' },
      { type: "tool-args-delta", index: 2, delta: '"Par' },
      { type: "tool-args-delta", index: 2, delta: 'is"' },
      { type: "tool-args-delta", index: 2, delta: "}" },
      { type: "block-end", index: 2 },
      { type: "block-start", index: 3, block: { type: "tool_call", id: "call_b", name: "get_weather" } },
      { type: "tool-args-delta", index: 3, delta: "{" },
      { type: "tool-args-delta", index: 3, delta: '"city"' },
      { type: "tool-args-delta", index: 3, delta: ':"Ro' },
      { type: "tool-args-delta", index: 3, delta: 'me"}' },
      { type: "block-end", index: 3 },
      {
        type: "finish",
        finishReason: "tool_calls",
        nativeFinishReason: "completed",
        usage: { inputTokens: 300, outputTokens: 150, cachedTokens: 128, cacheWriteTokens: 0, reasoningTokens: 64 },
      },
    ]);
  });

  test("property: arguments split anywhere reassemble exactly, blocks stay well formed", () => {
    const splitArgs = fc.tuple(fc.json(), fc.array(fc.nat(), { maxLength: 12 })).map(([json, cuts]) => {
      const points = [...new Set(cuts.map((cut) => cut % (json.length + 1)))].sort((a, b) => a - b);
      const chunks: string[] = [];
      let last = 0;
      for (const point of [...points, json.length]) {
        chunks.push(json.slice(last, point));
        last = point;
      }
      return { json, chunks };
    });
    fc.assert(
      fc.property(splitArgs, splitArgs, (a, b) => {
        const { parts } = decodeStream(upstreamEvents(a.chunks, b.chunks));
        const args = (index: number) =>
          parts
            .filter((part): part is Extract<IRStreamPart, { type: "tool-args-delta" }> => part.type === "tool-args-delta" && part.index === index)
            .map((part) => part.delta)
            .join("");
        expect(args(2)).toBe(a.json);
        expect(args(3)).toBe(b.json);
        // Every delta belongs to the one open block; blocks open in index order and all close.
        let open: number | undefined;
        let next = 0;
        for (const part of parts) {
          if (part.type === "block-start") {
            expect(open).toBeUndefined();
            expect(part.index).toBe(next++);
            open = part.index;
          } else if (part.type === "block-end") {
            expect(part.index).toBe(open!);
            open = undefined;
          } else if ("index" in part) {
            expect(part.index).toBe(open!);
          }
        }
        expect(open).toBeUndefined();
        expect(parts.at(-1)!.type).toBe("finish");
      }),
    );
  });

  test("text sent only in done events (no deltas) is not lost", () => {
    const { parts } = decodeStream([
      event({ type: "response.created", response: { id: "r", model: "m" } }),
      event({ type: "response.output_item.added", output_index: 0, item: { id: "rs", type: "reasoning", summary: [] } }),
      event({ type: "response.output_item.done", output_index: 0, item: { id: "rs", type: "reasoning", summary: [{ type: "summary_text", text: "S" }] } }),
      event({ type: "response.output_item.added", output_index: 1, item: { id: "m1", type: "message", content: [] } }),
      event({ type: "response.output_text.done", output_index: 1, content_index: 0, item_id: "m1", text: "Hi" }),
      event({ type: "response.output_item.done", output_index: 1, item: { id: "m1", type: "message" } }),
      event({ type: "response.output_item.added", output_index: 2, item: { id: "f", type: "function_call", call_id: "c", name: "n", arguments: "" } }),
      event({ type: "response.function_call_arguments.done", output_index: 2, item_id: "f", arguments: "{}" }),
      event({ type: "response.output_item.done", output_index: 2, item: { id: "f", type: "function_call", call_id: "c", name: "n", arguments: "{}" } }),
      event({ type: "response.incomplete", response: { status: "incomplete", incomplete_details: { reason: "max_output_tokens" } } }),
    ]);
    expect(parts).toEqual([
      { type: "start", id: "r", model: "m" },
      { type: "block-start", index: 0, block: { type: "reasoning", origin: "openai-responses", id: "rs", summary: true } },
      { type: "reasoning-delta", index: 0, text: "S" },
      { type: "block-end", index: 0 },
      { type: "block-start", index: 1, block: { type: "text" } },
      { type: "text-delta", index: 1, text: "Hi" },
      { type: "block-end", index: 1 },
      { type: "block-start", index: 2, block: { type: "tool_call", id: "c", name: "n" } },
      { type: "tool-args-delta", index: 2, delta: "{}" },
      { type: "block-end", index: 2 },
      {
        type: "finish",
        finishReason: "length",
        nativeFinishReason: "max_output_tokens",
        usage: { inputTokens: 0, outputTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
      },
    ]);
  });

  test("raw reasoning text, refusals and several summary parts", () => {
    const { parts } = decodeStream([
      event({ type: "response.created", response: { id: "r", model: "m" } }),
      event({ type: "response.output_item.added", output_index: 0, item: { id: "rs", type: "reasoning", summary: [] } }),
      event({ type: "response.content_part.added", output_index: 0, item_id: "rs", content_index: 0, part: { type: "reasoning_text", text: "" } }),
      event({ type: "response.reasoning_text.delta", output_index: 0, item_id: "rs", content_index: 0, delta: "raw" }),
      event({
        type: "response.output_item.done",
        output_index: 0,
        item: { id: "rs", type: "reasoning", summary: [], content: [{ type: "reasoning_text", text: "raw" }] },
      }),
      event({ type: "response.output_item.added", output_index: 1, item: { id: "rs2", type: "reasoning", summary: [] } }),
      event({ type: "response.reasoning_summary_part.added", output_index: 1, item_id: "rs2", summary_index: 0 }),
      event({ type: "response.reasoning_summary_text.delta", output_index: 1, item_id: "rs2", summary_index: 0, delta: "one" }),
      event({ type: "response.reasoning_summary_part.added", output_index: 1, item_id: "rs2", summary_index: 1 }),
      event({ type: "response.reasoning_summary_text.delta", output_index: 1, item_id: "rs2", summary_index: 1, delta: "two" }),
      event({ type: "response.output_item.done", output_index: 1, item: { id: "rs2", type: "reasoning", summary: [] } }),
      event({ type: "response.output_item.added", output_index: 2, item: { id: "m", type: "message", content: [] } }),
      event({ type: "response.content_part.added", output_index: 2, item_id: "m", content_index: 0, part: { type: "refusal", refusal: "" } }),
      event({ type: "response.refusal.delta", output_index: 2, item_id: "m", content_index: 0, delta: "No" }),
      event({ type: "response.refusal.done", output_index: 2, item_id: "m", content_index: 0, refusal: "No" }),
      event({ type: "response.output_item.done", output_index: 2, item: { id: "m", type: "message" } }),
      event({ type: "response.completed", response: { status: "completed" } }),
    ]);
    expect(parts.filter((part) => part.type !== "finish")).toEqual([
      { type: "start", id: "r", model: "m" },
      { type: "block-start", index: 0, block: { type: "reasoning", origin: "openai-responses", id: "rs" } },
      { type: "reasoning-delta", index: 0, text: "raw" },
      { type: "block-end", index: 0 },
      { type: "block-start", index: 1, block: { type: "reasoning", origin: "openai-responses", id: "rs2", summary: true } },
      { type: "reasoning-delta", index: 1, text: "one" },
      { type: "reasoning-delta", index: 1, text: "\n\n" },
      { type: "reasoning-delta", index: 1, text: "two" },
      { type: "block-end", index: 1 },
      { type: "block-start", index: 2, block: { type: "refusal" } },
      { type: "refusal-delta", index: 2, text: "No" },
      { type: "block-end", index: 2 },
    ]);
    expect(parts.at(-1)).toMatchObject({ type: "finish", finishReason: "stop" });
  });

  test("response.failed mid-stream closes the open block and ends with an error", () => {
    const decoder = openaiResponsesUpstream.createStreamDecoder();
    const parts = [
      event({ type: "response.created", response: { id: "r", model: "m" } }),
      event({ type: "response.output_item.added", output_index: 0, item: { id: "m", type: "message", content: [] } }),
      event({ type: "response.output_text.delta", output_index: 0, item_id: "m", content_index: 0, delta: "Hal" }),
      event({
        type: "response.failed",
        response: { status: "failed", error: { code: "rate_limit_exceeded", message: "Slow down" }, error_type: "rate_limit_exceeded" },
      }),
    ].flatMap((e) => decoder.push(e));
    expect(parts).toEqual([
      { type: "start", id: "r", model: "m" },
      { type: "block-start", index: 0, block: { type: "text" } },
      { type: "text-delta", index: 0, text: "Hal" },
      { type: "block-end", index: 0 },
      { type: "error", status: 429, message: "Slow down", errorType: "rate_limit_exceeded" },
    ]);
    expect(decoder.finished).toBe(true);
    expect(decoder.end()).toEqual([]);
  });

  test("an error event and a stream cut short", () => {
    const errored = openaiResponsesUpstream.createStreamDecoder();
    expect(errored.push(event({ type: "error", code: "server_error", message: "boom", param: null }))).toEqual([
      { type: "error", status: 502, message: "boom" },
    ]);
    const cut = openaiResponsesUpstream.createStreamDecoder();
    expect(cut.push(event({ type: "keepalive", sequence_number: 0 }))).toEqual([]);
    cut.push(event({ type: "response.created", response: { id: "r", model: "m" } }));
    cut.push(event({ type: "response.output_item.added", output_index: 0, item: { id: "f", type: "function_call", call_id: "c", name: "n" } }));
    expect(cut.end()).toEqual([
      { type: "block-end", index: 0 },
      { type: "error", status: 502, message: "Upstream stream ended before the response completed" },
    ]);
  });
});
