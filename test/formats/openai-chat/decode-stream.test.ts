import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { openaiChatUpstream } from "../../../src/formats/openai-chat";
import { decodeAll } from "../decode-events";
import { collect } from "../stream-collect";
import { expectValidStream } from "../stream-grammar";
import { AZURE_SAFE, azureChunk, azureOpening, azureStream } from "./azure-events";
import { chunk, delta, events } from "./fixtures";

const decoder = () => openaiChatUpstream.createStreamDecoder();

// What api.openai.com sends with stream_options.include_usage: `usage: null` on every
// chunk, then a final chunk with `choices: []` and the usage.
const openaiUsage = {
  prompt_tokens: 120,
  completion_tokens: 40,
  total_tokens: 160,
  prompt_tokens_details: { cached_tokens: 100, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 12, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
};
const nullUsage = { usage: null, system_fingerprint: "fp_1", service_tier: "default" };
const first = chunk([{ index: 0, delta: { role: "assistant", content: "", refusal: null }, logprobs: null, finish_reason: null }], nullUsage);
const usageChunk = chunk([], { usage: openaiUsage });
const decodedUsage = { inputTokens: 120, outputTokens: 40, cachedTokens: 100, reasoningTokens: 12 };
const finishUsage = { ...decodedUsage, cacheWriteTokens: 0 };

describe("createStreamDecoder", () => {
  test("plain text stream", () => {
    const parts = decodeAll(decoder(), events(first, delta({ content: "Hel" }), delta({ content: "lo" }), delta({}, "stop"), usageChunk, "[DONE]"));
    expect(parts).toStrictEqual([
      { type: "start", id: "chatcmpl-1", model: "gpt-x" },
      { type: "block-start", index: 0, block: { type: "text" } },
      { type: "text-delta", index: 0, text: "Hel" },
      { type: "text-delta", index: 0, text: "lo" },
      { type: "block-end", index: 0 },
      { type: "usage", usage: decodedUsage },
      { type: "finish", finishReason: "stop", nativeFinishReason: "stop", usage: finishUsage },
    ]);
  });

  test("parallel tool calls with arguments split across chunks", () => {
    const tc = (call: Record<string, unknown>) => delta({ tool_calls: [call] });
    const parts = decodeAll(
      decoder(),
      events(
        chunk([
          {
            index: 0,
            delta: {
              role: "assistant",
              content: null,
              tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "get_weather", arguments: "" } }],
            },
            finish_reason: null,
          },
        ]),
        tc({ index: 0, function: { arguments: '{"lo' } }),
        tc({ index: 0, function: { arguments: 'cation": "Paris"}' } }),
        tc({ index: 1, id: "call_b", type: "function", function: { name: "get_time", arguments: "" } }),
        tc({ index: 1, function: { arguments: '{"tz":' } }),
        tc({ index: 1, function: { arguments: '"CET"}' } }),
        delta({}, "tool_calls"),
        usageChunk,
        "[DONE]",
      ),
    );
    expect(parts).toStrictEqual([
      { type: "start", id: "chatcmpl-1", model: "gpt-x" },
      { type: "block-start", index: 0, block: { type: "tool_call", id: "call_a", name: "get_weather" } },
      { type: "tool-args-delta", index: 0, delta: '{"lo' },
      { type: "tool-args-delta", index: 0, delta: 'cation": "Paris"}' },
      { type: "block-end", index: 0 },
      { type: "block-start", index: 1, block: { type: "tool_call", id: "call_b", name: "get_time" } },
      { type: "tool-args-delta", index: 1, delta: '{"tz":' },
      { type: "tool-args-delta", index: 1, delta: '"CET"}' },
      { type: "block-end", index: 1 },
      { type: "usage", usage: decodedUsage },
      { type: "finish", finishReason: "tool_calls", nativeFinishReason: "tool_calls", usage: finishUsage },
    ]);
  });

  test("OpenRouter reasoning with an Anthropic signature, then text; usage on the finish chunk", () => {
    const detail = (d: Record<string, unknown>) => ({ type: "reasoning.text", format: "anthropic-claude-v1", index: 0, ...d });
    const parts = decodeAll(
      decoder(),
      events(
        delta({ role: "assistant", content: "", reasoning: "Let", reasoning_details: [detail({ text: "Let" })] }),
        delta({ content: "", reasoning: " me", reasoning_details: [detail({ text: " me" })] }),
        delta({ content: "", reasoning: "", reasoning_details: [detail({ text: "", signature: "sig-xyz" })] }),
        delta({ content: "Answer" }),
        chunk([{ index: 0, delta: {}, finish_reason: "stop", native_finish_reason: "end_turn" }], {
          usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12, completion_tokens_details: { reasoning_tokens: 3 } },
        }),
        "[DONE]",
      ),
    );
    expect(parts).toStrictEqual([
      { type: "start", id: "chatcmpl-1", model: "gpt-x" },
      { type: "block-start", index: 0, block: { type: "reasoning", origin: "anthropic-messages" } },
      { type: "reasoning-delta", index: 0, text: "Let" },
      { type: "reasoning-delta", index: 0, text: " me" },
      { type: "reasoning-signature", index: 0, signature: "sig-xyz" },
      { type: "block-end", index: 0 },
      { type: "block-start", index: 1, block: { type: "text" } },
      { type: "text-delta", index: 1, text: "Answer" },
      { type: "block-end", index: 1 },
      { type: "usage", usage: { inputTokens: 5, outputTokens: 7, reasoningTokens: 3 } },
      {
        type: "finish",
        finishReason: "stop",
        nativeFinishReason: "end_turn",
        usage: { inputTokens: 5, outputTokens: 7, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 3 },
      },
    ]);
  });

  test("DeepSeek reasoning_content, OpenAI Responses summary with encrypted payload, redacted thinking", () => {
    const parts = decodeAll(
      decoder(),
      events(
        delta({ reasoning_content: "raw " }),
        delta({ reasoning_content: "thought" }),
        delta({ reasoning_details: [{ type: "reasoning.summary", summary: "sum", id: "rs_1", format: "openai-responses-v1", index: 0 }] }),
        delta({ reasoning_details: [{ type: "reasoning.encrypted", data: "enc", id: "rs_1", format: "openai-responses-v1", index: 1 }] }),
        delta({ reasoning_details: [{ type: "reasoning.encrypted", data: "red", format: "anthropic-claude-v1", index: 2 }] }),
        delta({}, "stop"),
        "[DONE]",
      ),
    );
    expect(parts).toStrictEqual([
      { type: "start", id: "chatcmpl-1", model: "gpt-x" },
      { type: "block-start", index: 0, block: { type: "reasoning", origin: "unknown" } },
      { type: "reasoning-delta", index: 0, text: "raw " },
      { type: "reasoning-delta", index: 0, text: "thought" },
      { type: "block-end", index: 0 },
      { type: "block-start", index: 1, block: { type: "reasoning", origin: "openai-responses", id: "rs_1", summary: true } },
      { type: "reasoning-delta", index: 1, text: "sum" },
      { type: "reasoning-encrypted", index: 1, data: "enc" },
      { type: "block-end", index: 1 },
      { type: "block-start", index: 2, block: { type: "reasoning", origin: "anthropic-messages", redacted: true, encrypted: "red" } },
      { type: "block-end", index: 2 },
      {
        type: "finish",
        finishReason: "stop",
        nativeFinishReason: "stop",
        usage: { inputTokens: 0, outputTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
      },
    ]);
  });

  test("refusal stream", () => {
    const parts = decodeAll(decoder(), events(delta({ refusal: "I can't" }), delta({ refusal: " help." }), delta({}, "content_filter"), "[DONE]"));
    expect(collect(parts).content).toStrictEqual([{ type: "refusal", refusal: "I can't help." }]);
    expect(collect(parts).finishReason).toBe("content_filter");
  });

  test("tool calls told apart only by id at one index", () => {
    const parts = decodeAll(
      decoder(),
      events(
        delta({ tool_calls: [{ index: 0, id: "a", function: { name: "f", arguments: "{}" } }] }),
        delta({ tool_calls: [{ index: 0, id: "b", function: { name: "g", arguments: "[]" } }] }),
        delta({}, "tool_calls"),
        "[DONE]",
      ),
    );
    expect(collect(parts).content).toStrictEqual([
      { type: "tool_call", id: "a", name: "f", arguments: "{}" },
      { type: "tool_call", id: "b", name: "g", arguments: "[]" },
    ]);
  });

  test("an error chunk ends the stream with an error part", () => {
    const d = decoder();
    const parts = decodeAll(
      d,
      events(
        delta({ content: "par" }),
        { ...delta({ content: "" }, "error"), error: { code: 429, message: "slow down", metadata: { error_type: "rate_limit_exceeded" } } },
        delta({ content: "ignored" }),
      ),
    );
    expect(parts).toStrictEqual([
      { type: "start", id: "chatcmpl-1", model: "gpt-x" },
      { type: "block-start", index: 0, block: { type: "text" } },
      { type: "text-delta", index: 0, text: "par" },
      { type: "block-end", index: 0 },
      { type: "error", status: 429, message: "slow down", errorType: "rate_limit_exceeded" },
    ]);
    expect(d.finished).toBe(true);
  });

  test("a non-numeric error code becomes 502", () => {
    const parts = decodeAll(decoder(), events({ ...chunk([]), error: { code: "server_error", message: "boom" } }), false);
    expect(parts.at(-1)).toStrictEqual({ type: "error", status: 502, message: "boom" });
  });

  test("end() finishes when a finish_reason was seen without [DONE]", () => {
    const d = decoder();
    const parts = decodeAll(d, events(delta({ content: "x" }, "length")));
    expect(parts.at(-1)).toStrictEqual({
      type: "finish",
      finishReason: "length",
      nativeFinishReason: "length",
      usage: { inputTokens: 0, outputTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
    });
    expect(d.finished).toBe(true);
    expect(d.end()).toStrictEqual([]);
  });

  test("end() without a finish_reason closes the block and reports a truncated stream", () => {
    const parts = decodeAll(decoder(), events(delta({ content: "x" })));
    expect(parts.slice(-2)).toStrictEqual([
      { type: "block-end", index: 0 },
      { type: "error", status: 502, message: "Upstream stream ended before it finished" },
    ]);
  });

  test("property: tool arguments split at arbitrary points reassemble exactly, in parallel calls", () => {
    const splits = (text: string) =>
      fc.array(fc.nat({ max: text.length }), { maxLength: 12 }).map((cuts) => {
        const points = [...new Set([0, ...cuts, text.length])].sort((a, b) => a - b);
        return points.slice(1).map((end, i) => text.slice(points[i], end));
      });
    const call = fc.json().chain((args) => splits(args).map((pieces) => ({ args, pieces })));
    fc.assert(
      fc.property(fc.array(call, { minLength: 1, maxLength: 4 }), fc.boolean(), (calls, argsInFirstChunk) => {
        const input: unknown[] = [first];
        calls.forEach(({ pieces }, i) => {
          const [head = "", ...rest] = argsInFirstChunk ? pieces : ["", ...pieces];
          input.push(delta({ tool_calls: [{ index: i, id: `call_${i}`, type: "function", function: { name: `fn${i}`, arguments: head } }] }));
          for (const piece of rest) input.push(delta({ tool_calls: [{ index: i, function: { arguments: piece } }] }));
        });
        input.push(delta({}, "tool_calls"), usageChunk, "[DONE]");
        const parts = decodeAll(decoder(), events(...input));
        expectValidStream(parts);
        expect(collect(parts).content).toStrictEqual(calls.map(({ args }, i) => ({ type: "tool_call", id: `call_${i}`, name: `fn${i}`, arguments: args })));
      }),
      { numRuns: 200 },
    );
  });
});

describe("Azure OpenAI's stream extras", () => {
  test("the opening prompt-filter chunk starts nothing: the answer starts at the first real chunk, with its id and model", () => {
    const parts = decodeAll(decoder(), azureStream());
    expect(parts).toStrictEqual([
      { type: "start", id: "chatcmpl-az", model: "gpt-4o-2024-11-20" },
      { type: "block-start", index: 0, block: { type: "text" } },
      { type: "text-delta", index: 0, text: "Checking." },
      { type: "block-end", index: 0 },
      { type: "block-start", index: 1, block: { type: "tool_call", id: "call_a", name: "get_weather" } },
      { type: "tool-args-delta", index: 1, delta: '{"city":"Paris"}' },
      { type: "block-end", index: 1 },
      { type: "usage", usage: { inputTokens: 20, outputTokens: 9 } },
      {
        type: "finish",
        finishReason: "tool_calls",
        nativeFinishReason: "tool_calls",
        usage: { inputTokens: 20, outputTokens: 9, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
      },
    ]);
    expectValidStream(parts);
  });

  test("finish_reason content_filter with the filter's verdict ends the answer as content_filter", () => {
    const parts = decodeAll(
      decoder(),
      events(
        azureOpening,
        azureChunk({ delta: { content: "Part", role: "assistant" } }),
        azureChunk({ content_filter_results: { ...AZURE_SAFE, violence: { filtered: true, severity: "medium" } }, delta: {}, finish_reason: "content_filter" }),
        "[DONE]",
      ),
    );
    expect(parts.at(-1)).toStrictEqual({
      type: "finish",
      finishReason: "content_filter",
      nativeFinishReason: "content_filter",
      usage: { inputTokens: 0, outputTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
    });
  });

  test("a stream of nothing but the filter chunk has not started: it ends as a cut stream", () => {
    expect(decodeAll(decoder(), events(azureOpening))).toStrictEqual([{ type: "error", status: 502, message: "Upstream stream ended before it finished" }]);
  });
});
