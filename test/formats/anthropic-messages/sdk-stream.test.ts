import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import Anthropic from "@anthropic-ai/sdk";
import { anthropicInbound } from "../../../src/formats/anthropic-messages";
import { packForeignSignature } from "../../../src/formats/reasoning-signature";
import type { EncodeContext } from "../../../src/ir/codec";
import { NO_CHARGE } from "../../../src/ir/settlement";
import type { IRStreamPart } from "../../../src/ir/types";
import { encodeParts } from "../encode-parts";

const ctx: EncodeContext = {
  generationId: "gen-sdk",
  model: "anthropic/claude-sonnet",
  created: 1700000000,
  request: { messages: [], stream: true, sentParameters: [] },
};

const foreign = { type: "reasoning" as const, text: "", origin: "openai-responses" as const, id: "rs_1", encrypted: "ENC" };

const happy: IRStreamPart[] = [
  { type: "start", id: "up", model: "m", usage: { inputTokens: 1200, cachedTokens: 1000, cacheWriteTokens: 150 } },
  { type: "block-start", index: 0, block: { type: "reasoning", origin: "openai-responses", id: "rs_1" } },
  { type: "reasoning-delta", index: 0, text: "Plan: " },
  { type: "reasoning-delta", index: 0, text: "call f." },
  { type: "reasoning-encrypted", index: 0, data: "ENC" },
  { type: "block-end", index: 0 },
  { type: "block-start", index: 1, block: { type: "text" } },
  { type: "text-delta", index: 1, text: "Sure, " },
  { type: "text-delta", index: 1, text: "calling." },
  { type: "block-end", index: 1 },
  { type: "block-start", index: 2, block: { type: "tool_call", id: "call_1", name: "lookup" } },
  { type: "tool-args-delta", index: 2, delta: '{"q": "wea' },
  { type: "tool-args-delta", index: 2, delta: 'ther", "n": 2}' },
  { type: "block-end", index: 2 },
  {
    type: "finish",
    finishReason: "tool_calls",
    usage: { inputTokens: 1200, outputTokens: 77, cachedTokens: 1000, cacheWriteTokens: 150, reasoningTokens: 20 },
  },
];

const failing: IRStreamPart[] = [
  { type: "start", id: "up", model: "m" },
  { type: "block-start", index: 0, block: { type: "text" } },
  { type: "text-delta", index: 0, text: "par" },
  { type: "error", status: 529, message: "Upstream overloaded" },
];

let server: ReturnType<typeof Bun.serve>;
let script: IRStreamPart[] = happy;

beforeAll(() => {
  server = Bun.serve({
    port: 0,
    async fetch(request) {
      const sent = (await request.json()) as { stream?: boolean };
      if (!sent.stream) {
        const result = {
          id: "up",
          model: "m",
          content: [{ type: "text" as const, text: "plain" }],
          finishReason: "stop" as const,
          usage: { inputTokens: 5, outputTokens: 2, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
        };
        return Response.json(anthropicInbound.encodeResult(result, ctx, NO_CHARGE));
      }
      const body = encodeParts(anthropicInbound.createStreamEncoder(ctx), script, { ...NO_CHARGE, cost: 0.0042 });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    },
  });
});

afterAll(() => server.stop(true));

const client = () => new Anthropic({ baseURL: server.url.origin, apiKey: "test-key", maxRetries: 0 });

describe("@anthropic-ai/sdk consumes the stream encoder's output", () => {
  test("messages.stream().finalMessage() has the exact content and usage", async () => {
    script = happy;
    const stream = client().messages.stream({ model: "anthropic/claude-sonnet", max_tokens: 100, messages: [{ role: "user", content: "hi" }] });
    const texts: string[] = [];
    stream.on("text", (t) => texts.push(t));
    const final = JSON.parse(JSON.stringify(await stream.finalMessage())) as unknown;
    expect(texts).toStrictEqual(["Sure, ", "calling."]);
    expect(final).toStrictEqual({
      id: "gen-sdk",
      type: "message",
      role: "assistant",
      model: "anthropic/claude-sonnet",
      content: [
        { type: "thinking", thinking: "Plan: call f.", signature: packForeignSignature(foreign) },
        { type: "text", text: "Sure, calling." },
        { type: "tool_use", id: "call_1", name: "lookup", input: { q: "weather", n: 2 } },
      ],
      stop_reason: "tool_use",
      stop_sequence: null,
      stop_details: null,
      container: null,
      parsed_output: null, // added by the SDK's parser
      usage: {
        input_tokens: 50,
        output_tokens: 77,
        cache_creation_input_tokens: 150,
        cache_read_input_tokens: 1000,
        cache_creation: { ephemeral_5m_input_tokens: 150, ephemeral_1h_input_tokens: 0 },
        server_tool_use: null,
        service_tier: "standard",
        inference_geo: null,
        output_tokens_details: { thinking_tokens: 20 },
      },
    });
  });

  test("messages.create() parses the non-streaming result", async () => {
    const message = await client().messages.create({ model: "m", max_tokens: 10, messages: [{ role: "user", content: "hi" }] });
    expect(message.content).toStrictEqual([{ type: "text", text: "plain", citations: null }]);
    expect([message.stop_reason, message.usage.input_tokens, message.usage.output_tokens]).toStrictEqual(["end_turn", 5, 2]);
  });

  test("an error event rejects with the Anthropic error type", async () => {
    script = failing;
    const stream = client().messages.stream({ model: "m", max_tokens: 10, messages: [{ role: "user", content: "hi" }] });
    const error = (await stream.finalMessage().catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect(error.error).toStrictEqual({ type: "error", error: { type: "overloaded_error", message: "Upstream overloaded" } });
  });
});
