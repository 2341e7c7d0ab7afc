import { describe, expect, test } from "bun:test";
import { openaiChatInbound, openaiChatUpstream } from "../../../src/formats/openai-chat";
import { UpstreamFormatError } from "../../../src/ir/codec";
import { NO_CHARGE, type Settlement } from "../../../src/ir/settlement";
import type { IRResult } from "../../../src/ir/types";
import { ctx } from "./fixtures";

const upstreamBody = {
  id: "chatcmpl-9",
  object: "chat.completion",
  created: 1,
  model: "gpt-x-2025",
  choices: [
    {
      index: 0,
      message: {
        role: "assistant",
        content: "It is 42.",
        refusal: null,
        reasoning: "duplicate of the details",
        reasoning_details: [
          { type: "reasoning.text", text: "Let me think.", signature: "sig-a", format: "anthropic-claude-v1", index: 0 },
          { type: "reasoning.encrypted", data: "redacted", format: "anthropic-claude-v1", index: 1 },
        ],
        tool_calls: [{ id: "call_1", type: "function", function: { name: "lookup", arguments: '{"q":"x"}' } }],
      },
      finish_reason: "tool_calls",
      native_finish_reason: "tool_use",
    },
  ],
  usage: {
    prompt_tokens: 100,
    completion_tokens: 50,
    total_tokens: 150,
    prompt_tokens_details: { cached_tokens: 60, cache_write_tokens: 10 },
    completion_tokens_details: { reasoning_tokens: 20 },
  },
};

const decoded: IRResult = {
  id: "chatcmpl-9",
  model: "gpt-x-2025",
  content: [
    { type: "reasoning", text: "Let me think.", signature: "sig-a", origin: "anthropic-messages" },
    { type: "reasoning", text: "", encrypted: "redacted", redacted: true, origin: "anthropic-messages" },
    { type: "text", text: "It is 42." },
    { type: "tool_call", id: "call_1", name: "lookup", arguments: '{"q":"x"}' },
  ],
  finishReason: "tool_calls",
  nativeFinishReason: "tool_use",
  usage: { inputTokens: 100, outputTokens: 50, cachedTokens: 60, cacheWriteTokens: 10, reasoningTokens: 20 },
};

describe("decodeResult", () => {
  test("reads content, reasoning details, tool calls, usage and finish reason", () => {
    expect(openaiChatUpstream.decodeResult(upstreamBody)).toStrictEqual(decoded);
  });

  test("reasoning_content (DeepSeek) and refusal; missing usage is zero", () => {
    const result = openaiChatUpstream.decodeResult({
      id: "x",
      model: "m",
      choices: [{ index: 0, message: { role: "assistant", content: null, reasoning_content: "r", refusal: "I can't" }, finish_reason: "content_filter" }],
    });
    expect(result).toStrictEqual({
      id: "x",
      model: "m",
      content: [
        { type: "reasoning", text: "r", origin: "unknown" },
        { type: "refusal", refusal: "I can't" },
      ],
      finishReason: "content_filter",
      nativeFinishReason: "content_filter",
      usage: { inputTokens: 0, outputTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
    });
  });

  test("finish reasons", () => {
    const finish = (finish_reason: unknown, tool = false) =>
      openaiChatUpstream.decodeResult({
        choices: [{ message: { content: "a", tool_calls: tool ? [{ id: "c", function: { name: "f", arguments: "{}" } }] : undefined }, finish_reason }],
      }).finishReason;
    expect(finish("stop")).toBe("stop");
    expect(finish("length")).toBe("length");
    expect(finish("function_call")).toBe("tool_calls");
    expect(finish("error")).toBe("error");
    expect(finish(null)).toBe("stop");
    expect(finish(null, true)).toBe("tool_calls");
  });

  test("throws UpstreamFormatError without choices", () => {
    expect(() => openaiChatUpstream.decodeResult({ id: "x" })).toThrow(UpstreamFormatError);
    expect(() => openaiChatUpstream.decodeResult("nope")).toThrow(UpstreamFormatError);
    expect(() => openaiChatUpstream.decodeResult(null)).toThrow(UpstreamFormatError);
  });

  test("errorMessage", () => {
    expect(openaiChatUpstream.errorMessage({ error: { message: "bad key", code: 401 } })).toBe("bad key");
    expect(openaiChatUpstream.errorMessage({ error: "plain" })).toBe("plain");
    expect(openaiChatUpstream.errorMessage({ detail: "x" })).toBeUndefined();
    expect(openaiChatUpstream.errorMessage("text")).toBeUndefined();
  });
});

describe("encodeResult", () => {
  const result: IRResult = {
    ...decoded,
    content: [
      { type: "reasoning", text: "Let me think.", signature: "sig-a", origin: "anthropic-messages" },
      { type: "reasoning", text: "", encrypted: "redacted", redacted: true, origin: "anthropic-messages" },
      { type: "reasoning", text: " Summary.", summary: true, id: "rs_1", encrypted: "enc", origin: "openai-responses" },
      { type: "text", text: "It is " },
      { type: "text", text: "42." },
      { type: "tool_call", id: "call_1", name: "lookup", arguments: '{"q":"x"}' },
    ],
  };
  const settlement: Settlement = {
    cost: 0.0012,
    isByok: false,
    costDetails: { upstreamInferencePromptCost: 0.001, upstreamInferenceCompletionsCost: 0.0002, upstreamInferenceCost: null },
  };

  test("writes the ChatResult shape with exact values", () => {
    expect(openaiChatInbound.encodeResult(result, ctx(), settlement)).toStrictEqual({
      id: "gen-123",
      object: "chat.completion",
      created: 1_700_000_000,
      model: "acme/alpha",
      system_fingerprint: null,
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: "It is 42.",
            refusal: null,
            reasoning: "Let me think. Summary.",
            tool_calls: [{ id: "call_1", type: "function", function: { name: "lookup", arguments: '{"q":"x"}' } }],
            reasoning_details: [
              { type: "reasoning.text", text: "Let me think.", signature: "sig-a", format: "anthropic-claude-v1", index: 0 },
              { type: "reasoning.encrypted", data: "redacted", format: "anthropic-claude-v1", index: 1 },
              { type: "reasoning.summary", summary: " Summary.", id: "rs_1", format: "openai-responses-v1", index: 2 },
              { type: "reasoning.encrypted", data: "enc", id: "rs_1", format: "openai-responses-v1", index: 3 },
            ],
          },
          finish_reason: "tool_calls",
          native_finish_reason: "tool_use",
          logprobs: null,
        },
      ],
      usage: {
        prompt_tokens: 100,
        completion_tokens: 50,
        total_tokens: 150,
        cost: 0.0012,
        is_byok: false,
        cost_details: { upstream_inference_cost: null, upstream_inference_prompt_cost: 0.001, upstream_inference_completions_cost: 0.0002 },
        prompt_tokens_details: { cached_tokens: 60, cache_write_tokens: 10 },
        completion_tokens_details: { reasoning_tokens: 20 },
      },
    });
  });

  test("plain answer: null refusal and reasoning, no tool_calls; refusal finish is content_filter; service_metadata", () => {
    // a metadata stand-in, not the gateway's shape: read the body as plain JSON
    const body: Record<string, unknown> = openaiChatInbound.encodeResult(
      { ...decoded, content: [{ type: "refusal", refusal: "No." }], finishReason: "refusal", nativeFinishReason: "refusal" },
      ctx(),
      { ...NO_CHARGE, serviceMetadata: { region: "eu" } },
    );
    const choice = (body.choices as Array<Record<string, unknown>>)[0];
    expect(choice?.message).toStrictEqual({ role: "assistant", content: null, refusal: "No.", reasoning: null });
    expect(choice?.finish_reason).toBe("content_filter");
    expect(body.service_metadata).toStrictEqual({ region: "eu" });
  });

  test("encodeResult output decodes back to the same IR content", () => {
    const body = openaiChatInbound.encodeResult(result, ctx(), settlement);
    const back = openaiChatUpstream.decodeResult(body);
    const [thinking, redacted, summary, , , call] = result.content;
    const expected: unknown[] = [thinking, redacted, summary, { type: "text", text: "It is 42." }, call];
    expect(back.content as unknown[]).toStrictEqual(expected);
    expect(back.usage).toStrictEqual(decoded.usage);
    expect(back.finishReason).toBe("tool_calls");
  });
});
