import { describe, expect, test } from "bun:test";
import { openaiChatInbound } from "../../../src/formats/openai-chat";
import type { Settlement } from "../../../src/ir/settlement";
import type { IRStreamPart, IRUsage } from "../../../src/ir/types";
import { parseSse } from "../../support/sse";
import { encodeParts } from "../encode-parts";
import { ctx } from "./fixtures";

const usage: IRUsage = {
  inputTokens: 10,
  outputTokens: 5,
  cachedTokens: 4,
  cacheWriteTokens: 1,
  reasoningTokens: 2,
};

const settlement: Settlement = {
  cost: 0.5,
  isByok: true,
  costDetails: { upstreamInferencePromptCost: 0.3, upstreamInferenceCompletionsCost: 0.2, upstreamInferenceCost: 0.5 },
};

const encodeAll = (parts: IRStreamPart[], extra: Partial<Settlement> = {}) =>
  encodeParts(openaiChatInbound.createStreamEncoder(ctx()), parts, { ...settlement, ...extra });

const head = { id: "gen-123", object: "chat.completion.chunk", created: 1_700_000_000, model: "acme/alpha" };
const choice = (delta: Record<string, unknown>, finish_reason: string | null = null) => ({ ...head, choices: [{ index: 0, delta, finish_reason }] });

describe("createStreamEncoder", () => {
  test("text, tool calls and finish give OpenAI's frames exactly", () => {
    const sse = encodeAll(
      [
        { type: "start", id: "up-1", model: "alpha" },
        { type: "block-start", index: 0, block: { type: "text" } },
        { type: "text-delta", index: 0, text: "Hi" },
        { type: "block-end", index: 0 },
        { type: "block-start", index: 1, block: { type: "tool_call", id: "call_a", name: "f" } },
        { type: "tool-args-delta", index: 1, delta: '{"a"' },
        { type: "tool-args-delta", index: 1, delta: ":1}" },
        { type: "block-end", index: 1 },
        { type: "block-start", index: 2, block: { type: "tool_call", id: "call_b", name: "g" } },
        { type: "tool-args-delta", index: 2, delta: "{}" },
        { type: "block-end", index: 2 },
        { type: "usage", usage: { inputTokens: 10 } },
        { type: "finish", finishReason: "tool_calls", nativeFinishReason: "tool_use", usage },
      ],
      { serviceMetadata: { region: "eu" } },
    );
    expect(sse.endsWith("data: [DONE]\n\n")).toBe(true);
    const frames = parseSse(sse, "data-only");
    expect(frames.at(-1)?.data).toBe("[DONE]");
    expect(frames.slice(0, -1).map((frame) => JSON.parse(frame.data))).toStrictEqual([
      choice({ role: "assistant", content: "" }),
      choice({ content: "Hi" }),
      choice({ tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "f", arguments: "" } }] }),
      choice({ tool_calls: [{ index: 0, function: { arguments: '{"a"' } }] }),
      choice({ tool_calls: [{ index: 0, function: { arguments: ":1}" } }] }),
      choice({ tool_calls: [{ index: 1, id: "call_b", type: "function", function: { name: "g", arguments: "" } }] }),
      choice({ tool_calls: [{ index: 1, function: { arguments: "{}" } }] }),
      { ...head, choices: [{ index: 0, delta: {}, finish_reason: "tool_calls", native_finish_reason: "tool_use" }] },
      {
        ...head,
        choices: [],
        usage: {
          prompt_tokens: 10,
          completion_tokens: 5,
          total_tokens: 15,
          cost: 0.5,
          is_byok: true,
          cost_details: { upstream_inference_cost: 0.5, upstream_inference_prompt_cost: 0.3, upstream_inference_completions_cost: 0.2 },
          prompt_tokens_details: { cached_tokens: 4, cache_write_tokens: 1 },
          completion_tokens_details: { reasoning_tokens: 2 },
        },
        service_metadata: { region: "eu" },
      },
    ]);
  });

  test("reasoning: text deltas, signature and payloads carry reasoning_details", () => {
    const frames = parseSse(
      encodeAll([
        { type: "block-start", index: 0, block: { type: "reasoning", origin: "anthropic-messages" } },
        { type: "reasoning-delta", index: 0, text: "Hmm" },
        { type: "reasoning-signature", index: 0, signature: "sig" },
        { type: "block-end", index: 0 },
        { type: "block-start", index: 1, block: { type: "reasoning", origin: "anthropic-messages", redacted: true, encrypted: "red" } },
        { type: "block-end", index: 1 },
        { type: "block-start", index: 2, block: { type: "reasoning", origin: "openai-responses", id: "rs_1", summary: true } },
        { type: "reasoning-delta", index: 2, text: "Sum" },
        { type: "reasoning-encrypted", index: 2, data: "enc" },
        { type: "block-end", index: 2 },
      ]),
      "data-only",
    ).map((frame) => JSON.parse(frame.data));
    expect(frames).toStrictEqual([
      choice({ role: "assistant", reasoning: "Hmm", reasoning_details: [{ type: "reasoning.text", text: "Hmm", format: "anthropic-claude-v1", index: 0 }] }),
      choice({ reasoning_details: [{ type: "reasoning.text", text: "", signature: "sig", format: "anthropic-claude-v1", index: 0 }] }),
      choice({ reasoning_details: [{ type: "reasoning.encrypted", data: "red", format: "anthropic-claude-v1", index: 1 }] }),
      choice({ reasoning: "Sum", reasoning_details: [{ type: "reasoning.summary", summary: "Sum", id: "rs_1", format: "openai-responses-v1", index: 2 }] }),
      choice({ reasoning_details: [{ type: "reasoning.encrypted", data: "enc", id: "rs_1", format: "openai-responses-v1", index: 3 }] }),
    ]);
  });

  test("a payload known at block-start is sent after the block's text", () => {
    const frames = parseSse(
      encodeAll([
        { type: "start", id: "u", model: "m" },
        { type: "block-start", index: 0, block: { type: "reasoning", origin: "openai-responses", id: "rs_9", encrypted: "enc" } },
        { type: "reasoning-delta", index: 0, text: "t" },
        { type: "block-end", index: 0 },
      ]),
      "data-only",
    ).map((frame) => JSON.parse(frame.data));
    expect(frames.slice(1)).toStrictEqual([
      choice({ reasoning: "t", reasoning_details: [{ type: "reasoning.text", text: "t", id: "rs_9", format: "openai-responses-v1", index: 0 }] }),
      choice({ reasoning_details: [{ type: "reasoning.encrypted", data: "enc", id: "rs_9", format: "openai-responses-v1", index: 1 }] }),
    ]);
  });

  test("refusal deltas; refusal finish is content_filter", () => {
    const frames = parseSse(
      encodeAll([
        { type: "start", id: "u", model: "m" },
        { type: "block-start", index: 0, block: { type: "refusal" } },
        { type: "refusal-delta", index: 0, text: "No." },
        { type: "block-end", index: 0 },
        { type: "finish", finishReason: "refusal", usage },
      ]),
      "data-only",
    );
    expect(JSON.parse(frames[1]?.data ?? "")).toStrictEqual(choice({ refusal: "No." }));
    expect(JSON.parse(frames[2]?.data ?? "")).toStrictEqual({
      ...head,
      choices: [{ index: 0, delta: {}, finish_reason: "content_filter", native_finish_reason: null }],
    });
  });

  test("error part: one error chunk with an integer code, no [DONE], nothing after", () => {
    const encoder = openaiChatInbound.createStreamEncoder(ctx());
    encoder.encode({ type: "start", id: "u", model: "m" });
    const sse = encoder.encode({ type: "error", status: 502, message: "upstream died" });
    expect(sse).toBe(
      `data: ${JSON.stringify({
        ...head,
        error: { code: 502, message: "upstream died", metadata: { error_type: "provider_unavailable" } },
        choices: [{ index: 0, delta: { content: "" }, finish_reason: "error" }],
      })}\n\n`,
    );
    expect(encoder.finish({ type: "finish", finishReason: "stop", usage }, settlement)).toBe("");
  });

  test("an explicit error type is kept", () => {
    const sse = encodeAll([{ type: "error", status: 400, message: "too long", errorType: "context_length_exceeded" }]);
    expect(JSON.parse(parseSse(sse, "data-only")[0]?.data ?? "").error).toStrictEqual({
      code: 400,
      message: "too long",
      metadata: { error_type: "context_length_exceeded" },
    });
  });

  test("first frame carries the role even without a start part", () => {
    const sse = encodeAll([
      { type: "block-start", index: 0, block: { type: "text" } },
      { type: "text-delta", index: 0, text: "" },
      { type: "text-delta", index: 0, text: "a" },
    ]);
    expect(parseSse(sse, "data-only").map((f) => JSON.parse(f.data))).toStrictEqual([choice({ role: "assistant", content: "a" })]);
  });
});
