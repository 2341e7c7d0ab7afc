import { describe, expect, test } from "bun:test";
import { anthropicInbound, anthropicUpstream } from "../../../src/formats/anthropic-messages";
import { encodeSettledUsage, encodeUsage } from "../../../src/formats/anthropic-messages/usage";
import { packForeignSignature } from "../../../src/formats/reasoning-signature";
import type { EncodeContext } from "../../../src/ir/codec";
import { UpstreamFormatError } from "../../../src/ir/codec";
import { NO_CHARGE } from "../../../src/ir/settlement";
import { emptyUsage, type IRResult } from "../../../src/ir/types";

const ctx: EncodeContext = {
  generationId: "gen-1",
  model: "anthropic/claude-sonnet",
  created: 1700000000,
  request: { messages: [], stream: false, sentParameters: [] },
};

describe("usage normalisation", () => {
  test("encode subtracts cache reads and writes; 5m takes all writes without a split", () => {
    expect(encodeUsage({ inputTokens: 1000, outputTokens: 50, cachedTokens: 600, cacheWriteTokens: 300, reasoningTokens: 20 })).toStrictEqual({
      input_tokens: 100,
      output_tokens: 50,
      cache_creation_input_tokens: 300,
      cache_read_input_tokens: 600,
      cache_creation: { ephemeral_5m_input_tokens: 300, ephemeral_1h_input_tokens: 0 },
      server_tool_use: null,
      service_tier: "standard",
      inference_geo: null,
      output_tokens_details: { thinking_tokens: 20 },
    });
  });

  test("never negative, 1h split kept, cost fields", () => {
    expect(
      encodeSettledUsage(
        { inputTokens: 10, outputTokens: 0, cachedTokens: 8, cacheWriteTokens: 7, cacheWrite1hTokens: 5, reasoningTokens: 0 },
        {
          cost: 0.0012,
          isByok: false,
          costDetails: { upstreamInferencePromptCost: 0.001, upstreamInferenceCompletionsCost: 0.0002, upstreamInferenceCost: null },
        },
      ),
    ).toStrictEqual({
      input_tokens: 0,
      output_tokens: 0,
      cache_creation_input_tokens: 7,
      cache_read_input_tokens: 8,
      cache_creation: { ephemeral_5m_input_tokens: 2, ephemeral_1h_input_tokens: 5 },
      server_tool_use: null,
      service_tier: "standard",
      inference_geo: null,
      output_tokens_details: null,
      cost: 0.0012,
      is_byok: false,
      cost_details: {
        upstream_inference_prompt_cost: 0.001,
        upstream_inference_completions_cost: 0.0002,
        upstream_inference_cost: null,
      },
    });
  });
});

describe("anthropic encodeResult", () => {
  test("blocks in IR order, stop reason and usage", () => {
    const foreign = { type: "reasoning" as const, text: "sum", origin: "openai-responses" as const, id: "rs_9", encrypted: "ENC" };
    const result: IRResult = {
      id: "upstream-id",
      model: "upstream-model",
      content: [
        { type: "reasoning", text: "native", signature: "SIG", origin: "anthropic-messages" },
        { type: "reasoning", text: "", redacted: true, encrypted: "DATA", origin: "anthropic-messages" },
        foreign,
        { type: "text", text: "Hello" },
        { type: "tool_call", id: "call_1", name: "f", arguments: '{"x":[1,2]}' },
        { type: "tool_call", id: "call_2", name: "g", arguments: "[1" },
        { type: "refusal", refusal: "no" },
      ],
      finishReason: "tool_calls",
      usage: { inputTokens: 30, outputTokens: 12, cachedTokens: 10, cacheWriteTokens: 0, reasoningTokens: 0 },
    };
    const settlement = { ...NO_CHARGE, cost: 0.5, serviceMetadata: { region: "eu" } };
    // a metadata stand-in, not the gateway's shape: read the body as plain JSON
    const body: Record<string, unknown> = anthropicInbound.encodeResult(result, ctx, settlement);
    expect(body).toStrictEqual({
      id: "gen-1",
      type: "message",
      role: "assistant",
      model: "anthropic/claude-sonnet",
      content: [
        { type: "thinking", thinking: "native", signature: "SIG" },
        { type: "redacted_thinking", data: "DATA" },
        { type: "thinking", thinking: "sum", signature: packForeignSignature(foreign) },
        { type: "text", text: "Hello", citations: null },
        { type: "tool_use", id: "call_1", name: "f", input: { x: [1, 2] } },
        { type: "tool_use", id: "call_2", name: "g", input: {} },
        { type: "text", text: "no", citations: null },
      ],
      stop_reason: "tool_use",
      stop_sequence: null,
      stop_details: null,
      container: null,
      usage: {
        input_tokens: 20,
        output_tokens: 12,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 10,
        cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
        server_tool_use: null,
        service_tier: "standard",
        inference_geo: null,
        output_tokens_details: null,
        cost: 0.5,
        // the settlement always says whether the key was BYOK and how the cost splits
        is_byok: false,
        cost_details: { upstream_inference_prompt_cost: 0, upstream_inference_completions_cost: 0, upstream_inference_cost: null },
      },
      service_metadata: { region: "eu" },
    });
  });

  test("finish reason mapping", () => {
    const stop = (finishReason: IRResult["finishReason"], extra: Partial<IRResult> = {}) => {
      const body = anthropicInbound.encodeResult({ id: "", model: "", content: [], finishReason, usage: emptyUsage(), ...extra }, ctx, NO_CHARGE);
      return [body.stop_reason, body.stop_sequence];
    };
    expect(stop("stop")).toStrictEqual(["end_turn", null]);
    expect(stop("stop", { stopSequence: "###" })).toStrictEqual(["stop_sequence", "###"]);
    expect(stop("length")).toStrictEqual(["max_tokens", null]);
    expect(stop("tool_calls")).toStrictEqual(["tool_use", null]);
    expect(stop("content_filter")).toStrictEqual(["refusal", null]);
    expect(stop("refusal")).toStrictEqual(["refusal", null]);
    expect(stop("error")).toStrictEqual(["end_turn", null]);
    expect(stop("stop", { nativeFinishReason: "pause_turn" })).toStrictEqual(["pause_turn", null]);
    expect(stop("length", { nativeFinishReason: "model_context_window_exceeded" })).toStrictEqual(["model_context_window_exceeded", null]);
    expect(stop("length", { nativeFinishReason: "end_turn" })).toStrictEqual(["max_tokens", null]);
  });

  test("foreign reasoning survives a round trip through an Anthropic client", () => {
    const part = { type: "reasoning" as const, text: "summary", origin: "openai-responses" as const, id: "rs_abc", encrypted: "gAAAAB-opaque" };
    const body = anthropicInbound.encodeResult({ id: "", model: "", content: [part], finishReason: "stop", usage: emptyUsage() }, ctx, NO_CHARGE);
    const block = (body.content as Array<{ type: "thinking"; thinking: string; signature: string }>)[0]!;
    const req = anthropicInbound.decodeRequest({ model: "m", messages: [{ role: "assistant", content: [block] }] });
    expect(req.messages).toStrictEqual([{ role: "assistant", content: [part] }]);
  });
});

describe("anthropic decodeResult", () => {
  test("content, stop sequence and usage with cache reads, writes and 5m/1h split", () => {
    const result = anthropicUpstream.decodeResult({
      id: "msg_01",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-5",
      content: [
        { type: "thinking", thinking: "Let me see", signature: "EqQBCgIYAh" },
        { type: "redacted_thinking", data: "EmwKAhgB" },
        { type: "text", text: "Done", citations: null },
        { type: "tool_use", id: "toolu_01", name: "lookup", input: { q: "x" } },
        { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "q" } },
      ],
      stop_reason: "stop_sequence",
      stop_sequence: "END",
      usage: {
        input_tokens: 100,
        output_tokens: 40,
        cache_creation_input_tokens: 50,
        cache_read_input_tokens: 200,
        cache_creation: { ephemeral_5m_input_tokens: 20, ephemeral_1h_input_tokens: 30 },
        server_tool_use: { web_search_requests: 1, web_fetch_requests: 0 },
        output_tokens_details: { thinking_tokens: 25 },
        service_tier: "standard",
      },
    });
    expect(result).toStrictEqual({
      id: "msg_01",
      model: "claude-sonnet-4-5",
      content: [
        { type: "reasoning", text: "Let me see", origin: "anthropic-messages", signature: "EqQBCgIYAh" },
        { type: "reasoning", text: "", redacted: true, encrypted: "EmwKAhgB", origin: "anthropic-messages" },
        { type: "text", text: "Done" },
        { type: "tool_call", id: "toolu_01", name: "lookup", arguments: '{"q":"x"}' },
      ],
      finishReason: "stop",
      stopSequence: "END",
      nativeFinishReason: "stop_sequence",
      usage: {
        inputTokens: 350,
        outputTokens: 40,
        cachedTokens: 200,
        cacheWriteTokens: 50,
        cacheWrite5mTokens: 20,
        cacheWrite1hTokens: 30,
        reasoningTokens: 25,
        webSearchRequests: 1,
      },
    });
  });

  test("stop reasons and minimal usage", () => {
    const decode = (stop_reason: string | null) =>
      anthropicUpstream.decodeResult({ id: "m", model: "x", content: [], stop_reason, usage: { input_tokens: 3, output_tokens: 4 } });
    expect(decode("end_turn").finishReason).toBe("stop");
    expect(decode("max_tokens").finishReason).toBe("length");
    expect(decode("model_context_window_exceeded").finishReason).toBe("length");
    expect(decode("tool_use").finishReason).toBe("tool_calls");
    expect(decode("refusal").finishReason).toBe("refusal");
    expect(decode("pause_turn").finishReason).toBe("stop");
    expect(decode(null).usage).toStrictEqual({ inputTokens: 3, outputTokens: 4, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });
  });

  test("missing content is a format error; error bodies give their message", () => {
    expect(() => anthropicUpstream.decodeResult({ id: "x", type: "message" })).toThrow(UpstreamFormatError);
    expect(() => anthropicUpstream.decodeResult("nope")).toThrow(UpstreamFormatError);
    expect(anthropicUpstream.errorMessage({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } })).toBe("Overloaded");
    expect(anthropicUpstream.errorMessage({ message: "x" })).toBeUndefined();
    expect(anthropicUpstream.errorMessage(null)).toBeUndefined();
  });
});
