import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { anthropicUpstream } from "../../../src/formats/anthropic-messages";
import type { IRStreamPart } from "../../../src/ir/types";
import { parseSse } from "../../support/sse";
import { decodeAll } from "../decode-events";
import { messageStart, realistic, toolBlock, wire } from "./upstream-events";

describe("anthropic stream decoder", () => {
  test("realistic stream with thinking, text and two tool calls", () => {
    const parts = decodeAll(anthropicUpstream.createStreamDecoder(), parseSse(realistic));
    const expected: IRStreamPart[] = [
      {
        type: "start",
        id: "msg_01XY",
        model: "claude-sonnet-4-5",
        usage: { inputTokens: 525, cachedTokens: 400, cacheWriteTokens: 100, cacheWrite5mTokens: 100, cacheWrite1hTokens: 0 },
      },
      { type: "block-start", index: 0, block: { type: "reasoning", origin: "anthropic-messages" } },
      { type: "reasoning-delta", index: 0, text: "The user wants " },
      { type: "reasoning-delta", index: 0, text: "two lookups." },
      { type: "reasoning-signature", index: 0, signature: "EqQBCgIYAhIM1gbcDa9GJwZA2b3h" },
      { type: "block-end", index: 0 },
      { type: "block-start", index: 1, block: { type: "text" } },
      { type: "text-delta", index: 1, text: "Checking " },
      { type: "text-delta", index: 1, text: "both." },
      { type: "block-end", index: 1 },
      { type: "block-start", index: 2, block: { type: "tool_call", id: "toolu_01A", name: "get_weather" } },
      { type: "tool-args-delta", index: 2, delta: '{"ci' },
      { type: "tool-args-delta", index: 2, delta: 'ty": "Pa' },
      { type: "tool-args-delta", index: 2, delta: "ris" },
      { type: "tool-args-delta", index: 2, delta: '", "unit' },
      { type: "tool-args-delta", index: 2, delta: '": "c"}' },
      { type: "block-end", index: 2 },
      { type: "block-start", index: 3, block: { type: "tool_call", id: "toolu_01B", name: "get_time" } },
      { type: "tool-args-delta", index: 3, delta: "{" },
      { type: "tool-args-delta", index: 3, delta: '"tz"' },
      { type: "tool-args-delta", index: 3, delta: ":" },
      { type: "tool-args-delta", index: 3, delta: ' "Europe/' },
      { type: "tool-args-delta", index: 3, delta: 'Paris"' },
      { type: "tool-args-delta", index: 3, delta: "}" },
      { type: "block-end", index: 3 },
      {
        type: "finish",
        finishReason: "tool_calls",
        stopSequence: null,
        nativeFinishReason: "tool_use",
        usage: {
          inputTokens: 525,
          outputTokens: 187,
          cachedTokens: 400,
          cacheWriteTokens: 100,
          cacheWrite5mTokens: 100,
          cacheWrite1hTokens: 0,
          reasoningTokens: 40,
        },
      },
    ];
    expect(parts).toStrictEqual(expected);
  });

  test("skipped server-tool blocks renumber IR indexes; redacted thinking", () => {
    const text =
      messageStart +
      wire({ type: "content_block_start", index: 0, content_block: { type: "redacted_thinking", data: "EmwKAhgB" } }) +
      wire({ type: "content_block_stop", index: 0 }) +
      wire({ type: "content_block_start", index: 1, content_block: { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: {} } }) +
      wire({ type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '{"query":"x"}' } }) +
      wire({ type: "content_block_stop", index: 1 }) +
      wire({ type: "content_block_start", index: 2, content_block: { type: "text", text: "" } }) +
      wire({ type: "content_block_delta", index: 2, delta: { type: "text_delta", text: "Hi" } }) +
      wire({ type: "content_block_stop", index: 2 }) +
      wire({ type: "message_delta", delta: { stop_reason: "stop_sequence", stop_sequence: "##" }, usage: { output_tokens: 9 } }) +
      wire({ type: "message_stop" });
    const parts = decodeAll(anthropicUpstream.createStreamDecoder(), parseSse(text));
    expect(parts.slice(1)).toStrictEqual([
      { type: "block-start", index: 0, block: { type: "reasoning", origin: "anthropic-messages", redacted: true, encrypted: "EmwKAhgB" } },
      { type: "block-end", index: 0 },
      { type: "block-start", index: 1, block: { type: "text" } },
      { type: "text-delta", index: 1, text: "Hi" },
      { type: "block-end", index: 1 },
      {
        type: "finish",
        finishReason: "stop",
        stopSequence: "##",
        nativeFinishReason: "stop_sequence",
        usage: {
          inputTokens: 525,
          outputTokens: 9,
          cachedTokens: 400,
          cacheWriteTokens: 100,
          cacheWrite5mTokens: 100,
          cacheWrite1hTokens: 0,
          reasoningTokens: 0,
        },
      },
    ]);
  });

  test("error events map to statuses and end the stream", () => {
    const errorOf = (type: string) => {
      const decoder = anthropicUpstream.createStreamDecoder();
      decoder.push(parseSse(messageStart)[0]!);
      const parts = decoder.push({ event: "error", data: JSON.stringify({ type: "error", error: { type, message: "boom" } }) });
      expect(decoder.finished).toBe(true);
      expect(decoder.end()).toStrictEqual([]);
      return parts;
    };
    expect(errorOf("overloaded_error")).toStrictEqual([{ type: "error", status: 529, message: "boom", errorType: "overloaded_error" }]);
    expect(errorOf("rate_limit_error")).toStrictEqual([{ type: "error", status: 429, message: "boom", errorType: "rate_limit_error" }]);
    expect(errorOf("api_error")).toStrictEqual([{ type: "error", status: 502, message: "boom", errorType: "api_error" }]);
  });

  test("a stream cut before message_stop closes the open block", () => {
    const decoder = anthropicUpstream.createStreamDecoder();
    const text = messageStart + wire({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
    for (const e of parseSse(text)) decoder.push(e);
    expect(decoder.finished).toBe(false);
    expect(decoder.end()).toStrictEqual([
      { type: "block-end", index: 0 },
      { type: "error", status: 502, message: "Upstream stream ended before message_stop" },
    ]);
  });

  test("property: tool arguments split anywhere reassemble exactly", () => {
    fc.assert(
      fc.property(
        fc.jsonValue().map((v) => JSON.stringify({ value: v })),
        fc.array(fc.nat(), { maxLength: 20 }),
        (args, cutsRaw) => {
          const cuts = [...new Set(cutsRaw.map((c) => c % (args.length + 1)))].sort((a, b) => a - b);
          const chunks: string[] = [];
          let last = 0;
          for (const cut of [...cuts, args.length]) {
            chunks.push(args.slice(last, cut));
            last = cut;
          }
          const text =
            messageStart +
            toolBlock(0, "toolu_P", "fn", chunks) +
            wire({ type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 3 } }) +
            wire({ type: "message_stop" });
          const parts = decodeAll(anthropicUpstream.createStreamDecoder(), parseSse(text));
          const joined = parts.flatMap((p) => (p.type === "tool-args-delta" ? [p.delta] : [])).join("");
          expect(joined).toBe(args);
          expect(parts.at(-1)?.type).toBe("finish");
        },
      ),
      { numRuns: 300 },
    );
  });
});
