import { describe, expect, test } from "bun:test";
import { geminiUpstream } from "../../../src/formats/gemini";
import type { SseEvent } from "../../../src/ir/codec";
import type { IRStreamPart } from "../../../src/ir/types";
import { realistic } from "./upstream-events";

function decode(events: SseEvent[]): IRStreamPart[] {
  const decoder = geminiUpstream.createStreamDecoder();
  return [...events.flatMap((e) => decoder.push(e)), ...decoder.end()];
}

describe("gemini stream decoder", () => {
  test("thoughts, text and signed parallel calls, finished when the stream closes", () => {
    const parts = decode(realistic);
    const calls = parts.filter((p): p is Extract<IRStreamPart, { type: "block-start" }> => p.type === "block-start" && p.block.type === "tool_call");
    const [paris, rome] = calls.map((c) => (c.block as { id: string }).id);
    expect(parts).toStrictEqual([
      { type: "start", id: "resp-1", model: "gemini-3-flash-preview" },
      // the prompt side of the usage every event carries, passed on once
      { type: "usage", usage: { inputTokens: 42, cachedTokens: 10 } },
      { type: "block-start", index: 0, block: { type: "reasoning", origin: "gemini" } },
      { type: "reasoning-delta", index: 0, text: "**Planning**\nThe user wants" },
      { type: "reasoning-delta", index: 0, text: " the weather." },
      { type: "block-end", index: 0 },
      { type: "block-start", index: 1, block: { type: "text" } },
      { type: "text-delta", index: 1, text: "Let me check." },
      { type: "block-end", index: 1 },
      { type: "block-start", index: 2, block: { type: "reasoning", origin: "gemini", id: paris!, encrypted: "c2lnLTE=" } },
      { type: "block-end", index: 2 },
      { type: "block-start", index: 3, block: { type: "tool_call", id: paris!, name: "get_weather" } },
      { type: "tool-args-delta", index: 3, delta: '{"city":"Paris"}' },
      { type: "block-end", index: 3 },
      { type: "block-start", index: 4, block: { type: "tool_call", id: rome!, name: "get_weather" } },
      { type: "tool-args-delta", index: 4, delta: '{"city":"Rome"}' },
      { type: "block-end", index: 4 },
      {
        type: "finish",
        finishReason: "tool_calls",
        nativeFinishReason: "STOP",
        usage: { inputTokens: 42, outputTokens: 23, cachedTokens: 10, cacheWriteTokens: 0, reasoningTokens: 20 },
      },
    ]);
    expect(paris).not.toBe(rome);
  });

  test("a signature that comes last on an empty text part", () => {
    const parts = decode([
      { data: JSON.stringify({ candidates: [{ content: { parts: [{ text: "Hello" }] } }] }) },
      {
        data: JSON.stringify({
          candidates: [{ content: { parts: [{ text: "", thoughtSignature: "end-sig" }] }, finishReason: "MAX_TOKENS" }],
          usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 1 },
        }),
      },
    ]);
    expect(parts.slice(1)).toStrictEqual([
      { type: "block-start", index: 0, block: { type: "text" } },
      { type: "text-delta", index: 0, text: "Hello" },
      { type: "usage", usage: { inputTokens: 3, cachedTokens: 0 } },
      { type: "block-end", index: 0 },
      { type: "block-start", index: 1, block: { type: "reasoning", origin: "gemini", encrypted: "end-sig" } },
      { type: "block-end", index: 1 },
      {
        type: "finish",
        finishReason: "length",
        nativeFinishReason: "MAX_TOKENS",
        usage: { inputTokens: 3, outputTokens: 1, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
      },
    ]);
  });

  test("a thought's own signature closes that thought", () => {
    const parts = decode([
      {
        data: JSON.stringify({
          candidates: [
            {
              content: {
                parts: [
                  { text: "hmm", thought: true, thoughtSignature: "th" },
                  { text: "more", thought: true },
                ],
              },
              finishReason: "STOP",
            },
          ],
        }),
      },
    ]);
    expect(parts.slice(1, 8)).toStrictEqual([
      { type: "block-start", index: 0, block: { type: "reasoning", origin: "gemini" } },
      { type: "reasoning-delta", index: 0, text: "hmm" },
      { type: "reasoning-encrypted", index: 0, data: "th" },
      { type: "block-end", index: 0 },
      { type: "block-start", index: 1, block: { type: "reasoning", origin: "gemini" } },
      { type: "reasoning-delta", index: 1, text: "more" },
      { type: "block-end", index: 1 },
    ]);
  });

  test("an error event ends the stream with its status; a stream that stops short is a 502", () => {
    const failed = decode([realistic[0]!, { data: JSON.stringify({ error: { code: 503, message: "The model is overloaded.", status: "UNAVAILABLE" } }) }]);
    expect(failed.slice(-2)).toStrictEqual([
      { type: "block-end", index: 0 },
      { type: "error", status: 503, message: "The model is overloaded.", errorType: "UNAVAILABLE" },
    ]);
    expect(decode(realistic.slice(0, 3)).at(-1)).toStrictEqual({ type: "error", status: 502, message: "Upstream stream ended before a finish reason" });
    expect(decode([{ data: "{not json" }]).at(-1)).toStrictEqual({ type: "error", status: 502, message: "Upstream sent an event that is not a JSON object" });
  });

  test("a blocked prompt finishes filtered", () => {
    const parts = decode([{ data: JSON.stringify({ promptFeedback: { blockReason: "SAFETY" }, usageMetadata: { promptTokenCount: 5 } }) }]);
    expect(parts.at(-1)).toStrictEqual({
      type: "finish",
      finishReason: "content_filter",
      nativeFinishReason: "SAFETY",
      usage: { inputTokens: 5, outputTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
    });
  });
});
