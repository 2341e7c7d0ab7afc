import { describe, expect, test } from "bun:test";
import { anthropicInbound, anthropicUpstream } from "../../../src/formats/anthropic-messages";
import { packForeignSignature } from "../../../src/formats/reasoning-signature";
import type { EncodeContext } from "../../../src/ir/codec";
import { NO_CHARGE, type Settlement } from "../../../src/ir/settlement";
import type { IRStreamPart, IRUsage } from "../../../src/ir/types";
import { parseSse, sseJsonEvents } from "../../support/sse";
import { decodeAll } from "../decode-events";
import { encodeParts } from "../encode-parts";

const ctx: EncodeContext = {
  generationId: "gen-42",
  model: "anthropic/claude-sonnet",
  created: 1700000000,
  request: { messages: [], stream: true, sentParameters: [] },
};

const encodeAll = (parts: IRStreamPart[], settlement: Settlement = NO_CHARGE) => encodeParts(anthropicInbound.createStreamEncoder(ctx), parts, settlement);

const finalUsage: IRUsage = {
  inputTokens: 100,
  outputTokens: 30,
  cachedTokens: 60,
  cacheWriteTokens: 10,
  cacheWrite5mTokens: 10,
  cacheWrite1hTokens: 0,
  reasoningTokens: 12,
};

const script: IRStreamPart[] = [
  {
    type: "start",
    id: "up-1",
    model: "claude",
    usage: { inputTokens: 100, cachedTokens: 60, cacheWriteTokens: 10, cacheWrite5mTokens: 10, cacheWrite1hTokens: 0 },
  },
  { type: "block-start", index: 0, block: { type: "reasoning", origin: "anthropic-messages" } },
  { type: "reasoning-delta", index: 0, text: "hmm" },
  { type: "reasoning-signature", index: 0, signature: "SIG" },
  { type: "block-end", index: 0 },
  { type: "block-start", index: 1, block: { type: "text" } },
  { type: "text-delta", index: 1, text: "Hi" },
  { type: "block-end", index: 1 },
  { type: "block-start", index: 2, block: { type: "tool_call", id: "toolu_1", name: "f" } },
  { type: "tool-args-delta", index: 2, delta: '{"a":' },
  { type: "tool-args-delta", index: 2, delta: "1}" },
  { type: "block-end", index: 2 },
  { type: "finish", finishReason: "tool_calls", stopSequence: null, nativeFinishReason: "tool_use", usage: finalUsage },
];

describe("anthropic stream encoder", () => {
  test("exact event grammar", () => {
    const text = encodeAll(script);
    expect(text.startsWith('event: message_start\ndata: {"type":"message_start","message":{"id":"gen-42"')).toBe(true);
    expect(text.endsWith('event: message_stop\ndata: {"type":"message_stop"}\n\n')).toBe(true);
    expect(sseJsonEvents(text)).toStrictEqual([
      {
        event: "message_start",
        data: {
          type: "message_start",
          message: {
            id: "gen-42",
            type: "message",
            role: "assistant",
            model: "anthropic/claude-sonnet",
            content: [],
            stop_reason: null,
            stop_sequence: null,
            stop_details: null,
            container: null,
            usage: {
              input_tokens: 30,
              output_tokens: 0,
              cache_creation_input_tokens: 10,
              cache_read_input_tokens: 60,
              cache_creation: { ephemeral_5m_input_tokens: 10, ephemeral_1h_input_tokens: 0 },
              server_tool_use: null,
              service_tier: "standard",
              inference_geo: null,
              output_tokens_details: null,
            },
          },
        },
      },
      { event: "content_block_start", data: { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "", signature: "" } } },
      { event: "content_block_delta", data: { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "hmm" } } },
      { event: "content_block_delta", data: { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "SIG" } } },
      { event: "content_block_stop", data: { type: "content_block_stop", index: 0 } },
      { event: "content_block_start", data: { type: "content_block_start", index: 1, content_block: { type: "text", text: "" } } },
      { event: "content_block_delta", data: { type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "Hi" } } },
      { event: "content_block_stop", data: { type: "content_block_stop", index: 1 } },
      {
        event: "content_block_start",
        data: { type: "content_block_start", index: 2, content_block: { type: "tool_use", id: "toolu_1", name: "f", input: {} } },
      },
      { event: "content_block_delta", data: { type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: '{"a":' } } },
      { event: "content_block_delta", data: { type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: "1}" } } },
      { event: "content_block_stop", data: { type: "content_block_stop", index: 2 } },
      {
        event: "message_delta",
        data: {
          type: "message_delta",
          delta: { stop_reason: "tool_use", stop_sequence: null, stop_details: null, container: null },
          usage: {
            input_tokens: 30,
            output_tokens: 30,
            cache_creation_input_tokens: 10,
            cache_read_input_tokens: 60,
            cache_creation: { ephemeral_5m_input_tokens: 10, ephemeral_1h_input_tokens: 0 },
            server_tool_use: null,
            service_tier: "standard",
            inference_geo: null,
            output_tokens_details: { thinking_tokens: 12 },
            // what the gateway charged (NO_CHARGE here)
            cost: 0,
            is_byok: false,
            cost_details: { upstream_inference_prompt_cost: 0, upstream_inference_completions_cost: 0, upstream_inference_cost: null },
          },
        },
      },
      { event: "message_stop", data: { type: "message_stop" } },
    ]);
  });

  test("encode then decode gives the IR parts back", () => {
    const decoded = decodeAll(anthropicUpstream.createStreamDecoder(), parseSse(encodeAll(script)));
    expect(decoded).toStrictEqual([{ ...script[0]!, id: "gen-42", model: "anthropic/claude-sonnet" } as IRStreamPart, ...script.slice(1)]);
  });

  test("foreign reasoning gets a packed signature; redacted thinking is written whole; blocks never overlap", () => {
    const foreign = { type: "reasoning" as const, text: "", origin: "openai-responses" as const, id: "rs_7", encrypted: "ENC", summary: true };
    const text = encodeAll([
      { type: "block-start", index: 0, block: { type: "reasoning", origin: "openai-responses", id: "rs_7", summary: true } },
      { type: "reasoning-delta", index: 0, text: "sum" },
      { type: "reasoning-encrypted", index: 0, data: "ENC" },
      // no block-end: the next block-start closes it
      { type: "block-start", index: 1, block: { type: "reasoning", origin: "anthropic-messages", redacted: true } },
      { type: "reasoning-encrypted", index: 1, data: "RED" },
      { type: "block-end", index: 1 },
      { type: "block-start", index: 2, block: { type: "refusal" } },
      { type: "refusal-delta", index: 2, text: "No." },
      { type: "finish", finishReason: "refusal", usage: { inputTokens: 1, outputTokens: 2, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 } },
      { type: "text-delta", index: 2, text: "ignored after finish" },
    ]);
    const data = sseJsonEvents(text).map((e) => e.data as Record<string, unknown>);
    expect(data.map((d) => d.type)).toStrictEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(data[3]).toStrictEqual({
      type: "content_block_delta",
      index: 0,
      delta: { type: "signature_delta", signature: packForeignSignature(foreign) },
    });
    expect(data[5]).toStrictEqual({ type: "content_block_start", index: 1, content_block: { type: "redacted_thinking", data: "RED" } });
    expect(data[8]).toStrictEqual({ type: "content_block_delta", index: 2, delta: { type: "text_delta", text: "No." } });
    expect((data[10]!.delta as Record<string, unknown>).stop_reason).toBe("refusal");
  });

  test("error part becomes an error event; service metadata rides on message_stop", () => {
    expect(encodeAll([{ type: "error", status: 529, message: "busy" }])).toBe(
      'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"busy"}}\n\n',
    );
    expect(encodeAll([{ type: "error", status: 502, message: "bad", errorType: "rate_limit_error" }])).toBe(
      'event: error\ndata: {"type":"error","error":{"type":"rate_limit_error","message":"bad"}}\n\n',
    );
    const text = encodeAll(
      [
        {
          type: "finish",
          finishReason: "stop",
          stopSequence: "STOP",
          usage: { inputTokens: 1, outputTokens: 1, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
        },
      ],
      { ...NO_CHARGE, serviceMetadata: { provider: "acme" } },
    );
    const data = sseJsonEvents(text).map((e) => e.data as Record<string, unknown>);
    expect(data.map((d) => d.type)).toStrictEqual(["message_start", "message_delta", "message_stop"]);
    expect(data[1]!.delta).toStrictEqual({ stop_reason: "stop_sequence", stop_sequence: "STOP", stop_details: null, container: null });
    expect(data[2]).toStrictEqual({ type: "message_stop", service_metadata: { provider: "acme" } });
  });

  test("message_start announces the gateway's prompt count when the upstream's start has none; an upstream's own figure wins", () => {
    const counted = anthropicInbound.createStreamEncoder({ ...ctx, promptTokens: 321 });
    const messageStart = (text: string) => (sseJsonEvents(text)[0]!.data as any).message.usage;
    expect(messageStart(counted.encode({ type: "start", id: "chatcmpl-1", model: "gpt" }))).toMatchObject({
      input_tokens: 321,
      output_tokens: 0,
      cache_read_input_tokens: 0,
    });
    const upstreamFigure = anthropicInbound.createStreamEncoder({ ...ctx, promptTokens: 321 });
    expect(messageStart(upstreamFigure.encode(script[0]! as Exclude<IRStreamPart, { type: "finish" }>))).toMatchObject({
      input_tokens: 30,
      cache_read_input_tokens: 60,
      cache_creation_input_tokens: 10,
    });
    // without a count (a codec that announces none, or no prompt), 0 as before
    expect(messageStart(anthropicInbound.createStreamEncoder(ctx).encode({ type: "start", id: "c", model: "gpt" }))).toMatchObject({ input_tokens: 0 });
  });
});
