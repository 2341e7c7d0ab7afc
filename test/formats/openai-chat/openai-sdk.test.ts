import { describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { openaiChatInbound } from "../../../src/formats/openai-chat";
import type { IRStreamPart } from "../../../src/ir/types";
import { encodeParts } from "../encode-parts";
import { ctx } from "./fixtures";

/** The real `openai` client reading our SSE through an in-process fetch (no network). */
function clientFor(parts: IRStreamPart[]): OpenAI {
  const sse = encodeParts(openaiChatInbound.createStreamEncoder(ctx()), parts);
  const fetch = async () => new Response(sse, { headers: { "content-type": "text/event-stream" } });
  return new OpenAI({ apiKey: "test", baseURL: "http://gateway.test/api/v1", fetch: fetch as unknown as typeof globalThis.fetch, maxRetries: 0 });
}

const usage = { inputTokens: 9, outputTokens: 4, cachedTokens: 2, cacheWriteTokens: 0, reasoningTokens: 1 };

const answer: IRStreamPart[] = [
  { type: "start", id: "u", model: "m" },
  { type: "block-start", index: 0, block: { type: "reasoning", origin: "anthropic-messages" } },
  { type: "reasoning-delta", index: 0, text: "think" },
  { type: "reasoning-signature", index: 0, signature: "sig" },
  { type: "block-end", index: 0 },
  { type: "block-start", index: 1, block: { type: "text" } },
  { type: "text-delta", index: 1, text: "Hello" },
  { type: "text-delta", index: 1, text: " world" },
  { type: "block-end", index: 1 },
  { type: "block-start", index: 2, block: { type: "tool_call", id: "call_1", name: "get" } },
  { type: "tool-args-delta", index: 2, delta: '{"q":' },
  { type: "tool-args-delta", index: 2, delta: "1}" },
  { type: "block-end", index: 2 },
  { type: "block-start", index: 3, block: { type: "tool_call", id: "call_2", name: "put" } },
  { type: "tool-args-delta", index: 3, delta: "{}" },
  { type: "block-end", index: 3 },
  { type: "finish", finishReason: "tool_calls", usage },
];

describe("openai SDK reads the encoded stream", () => {
  test("chat.completions.stream() and finalChatCompletion()", async () => {
    const stream = clientFor(answer).chat.completions.stream({ model: "acme/alpha", messages: [{ role: "user", content: "hi" }] });
    const final = await stream.finalChatCompletion();
    expect(final.id).toBe("gen-123");
    expect(final.model).toBe("acme/alpha");
    expect(final.choices[0]?.finish_reason).toBe("tool_calls");
    expect(final.choices[0]?.message.content).toBe("Hello world");
    expect(final.choices[0]?.message.tool_calls).toStrictEqual([
      { id: "call_1", type: "function", function: { name: "get", arguments: '{"q":1}' } },
      { id: "call_2", type: "function", function: { name: "put", arguments: "{}" } },
    ]);
    expect(final.usage?.prompt_tokens).toBe(9);
    expect(final.usage?.completion_tokens).toBe(4);
    expect(final.usage?.total_tokens).toBe(13);
    expect(final.usage?.prompt_tokens_details?.cached_tokens).toBe(2);
  });

  test("create({ stream: true }) yields every chunk", async () => {
    const stream = await clientFor(answer).chat.completions.create({ model: "acme/alpha", messages: [{ role: "user", content: "hi" }], stream: true });
    let text = "";
    let chunks = 0;
    for await (const chunk of stream) {
      chunks++;
      text += chunk.choices[0]?.delta.content ?? "";
    }
    expect(text).toBe("Hello world");
    expect(chunks).toBe(12);
  });

  test("an error chunk surfaces as APIError", async () => {
    const failing: IRStreamPart[] = [
      { type: "start", id: "u", model: "m" },
      { type: "error", status: 502, message: "upstream died" },
    ];
    const stream = await clientFor(failing).chat.completions.create({ model: "acme/alpha", messages: [{ role: "user", content: "hi" }], stream: true });
    const read = async () => {
      for await (const _ of stream) void _;
    };
    await expect(read()).rejects.toThrow(OpenAI.APIError);
  });
});
