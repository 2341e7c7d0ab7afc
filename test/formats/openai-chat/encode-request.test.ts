import { describe, expect, test } from "bun:test";
import { openaiChatInbound, openaiChatUpstream } from "../../../src/formats/openai-chat";
import type { ChatRequestBody } from "../../../src/formats/openai-chat/schema";
import type { IRRequest } from "../../../src/ir/types";

const base: IRRequest = { messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }], stream: false, sentParameters: [] };

describe("encodeRequest", () => {
  test("minimal request", () => {
    expect(openaiChatUpstream.encodeRequest(base, "alpha-2025")).toStrictEqual({
      model: "alpha-2025",
      messages: [{ role: "user", content: "hi" }],
    });
  });

  test("every parameter, and no gateway-only fields", () => {
    const req: IRRequest = {
      ...base,
      model: "acme/alpha",
      models: ["acme/beta"],
      stream: true,
      maxOutputTokens: 300,
      temperature: 0.3,
      topP: 0.8,
      topK: 20,
      frequencyPenalty: 0.5,
      presencePenalty: -0.5,
      repetitionPenalty: 1.2,
      minP: 0.1,
      topA: 0.2,
      seed: 42,
      stop: ["END"],
      logitBias: { "7": -1 },
      logprobs: true,
      topLogprobs: 2,
      tools: [{ type: "function", name: "get", description: "fetch", parameters: { type: "object" }, strict: true }],
      toolChoice: { type: "tool", name: "get" },
      parallelToolCalls: true,
      responseFormat: { type: "json_schema", name: "out", schema: { type: "object" }, strict: true },
      reasoning: { effort: "low" },
      serviceTier: "fast",
      user: "u-1",
      sessionId: "s-1",
      metadata: { a: "b" },
      provider: { only: ["x"] },
      trace: { trace_id: "t" },
      plugins: [{ id: "web" }],
      preset: "p",
      promptCacheKey: "pk",
      sentParameters: ["temperature"],
    };
    expect(openaiChatUpstream.encodeRequest(req, "alpha-2025")).toStrictEqual({
      model: "alpha-2025",
      messages: [{ role: "user", content: "hi" }],
      max_tokens: 300,
      temperature: 0.3,
      top_p: 0.8,
      top_k: 20,
      frequency_penalty: 0.5,
      presence_penalty: -0.5,
      repetition_penalty: 1.2,
      min_p: 0.1,
      top_a: 0.2,
      seed: 42,
      stop: ["END"],
      logit_bias: { "7": -1 },
      logprobs: true,
      top_logprobs: 2,
      tools: [{ type: "function", function: { name: "get", description: "fetch", parameters: { type: "object" }, strict: true } }],
      tool_choice: { type: "function", function: { name: "get" } },
      parallel_tool_calls: true,
      response_format: { type: "json_schema", json_schema: { name: "out", schema: { type: "object" }, strict: true } },
      reasoning_effort: "low",
      service_tier: "priority",
      prompt_cache_key: "pk",
      user: "u-1",
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  test("reasoning budget becomes an effort; disabled reasoning is omitted", () => {
    const effort = (reasoning: IRRequest["reasoning"], maxOutputTokens?: number) =>
      openaiChatUpstream.encodeRequest({ ...base, reasoning, maxOutputTokens }, "m").reasoning_effort;
    expect(effort({ maxTokens: 8000 }, 10_000)).toBe("high");
    expect(effort({ maxTokens: 5000 }, 10_000)).toBe("medium");
    expect(effort({ maxTokens: 2000 }, 10_000)).toBe("low");
    expect(effort({ maxTokens: 500 }, 10_000)).toBe("minimal");
    expect(effort({ enabled: false, effort: "high" })).toBeUndefined();
    expect(effort({ effort: "none" })).toBeUndefined();
    expect(effort({ enabled: true })).toBeUndefined();
  });

  test("messages: system, images, files, assistant tool calls and tool results", () => {
    const req: IRRequest = {
      ...base,
      messages: [
        { role: "system", content: [{ type: "text", text: "rules" }] },
        { role: "system", content: [{ type: "text", text: "cached", cacheControl: { type: "ephemeral" } }] },
        {
          role: "user",
          name: "ann",
          content: [
            { type: "text", text: "see" },
            { type: "image", source: { kind: "base64", mediaType: "image/png", data: "AAA=" }, detail: "high" },
            { type: "image", source: { kind: "url", url: "https://x.test/a.png" } },
            { type: "file", filename: "a.pdf", mediaType: "application/pdf", data: "JVB=" },
          ],
        },
        {
          role: "assistant",
          content: [
            { type: "reasoning", text: "anthropic thought", signature: "sig", origin: "anthropic-messages" },
            { type: "reasoning", text: "", encrypted: "rs-enc", id: "rs_1", origin: "openai-responses" },
            { type: "reasoning", text: "chat thought", signature: "gsig", origin: "openai-chat" },
            { type: "reasoning", text: "loose thought", origin: "unknown" },
            { type: "text", text: "let me " },
            { type: "text", text: "check" },
            { type: "tool_call", id: "call_1", name: "get", arguments: '{"a":1}' },
          ],
        },
        { role: "tool", toolCallId: "call_1", content: "42" },
        { role: "assistant", content: [{ type: "tool_call", id: "call_2", name: "put", arguments: "{}" }] },
        { role: "tool", toolCallId: "call_2", content: [{ type: "text", text: "done" }], isError: true },
      ],
    };
    expect(openaiChatUpstream.encodeRequest(req, "m").messages).toStrictEqual([
      { role: "system", content: "rules" },
      { role: "system", content: [{ type: "text", text: "cached", cache_control: { type: "ephemeral" } }] },
      {
        role: "user",
        content: [
          { type: "text", text: "see" },
          { type: "image_url", image_url: { url: "data:image/png;base64,AAA=", detail: "high" } },
          { type: "image_url", image_url: { url: "https://x.test/a.png" } },
          { type: "file", file: { filename: "a.pdf", file_data: "data:application/pdf;base64,JVB=" } },
        ],
        name: "ann",
      },
      {
        role: "assistant",
        content: "let me check",
        tool_calls: [{ id: "call_1", type: "function", function: { name: "get", arguments: '{"a":1}' } }],
        reasoning_details: [{ type: "reasoning.text", text: "chat thought", signature: "gsig", format: "unknown", index: 0 }],
      },
      { role: "tool", tool_call_id: "call_1", content: "42" },
      { role: "assistant", content: null, tool_calls: [{ id: "call_2", type: "function", function: { name: "put", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "call_2", content: "done" },
    ]);
  });

  test("Gemini thought signatures go back to a Chat upstream as google-gemini-v1 details, named after their call", () => {
    const req: IRRequest = {
      stream: false,
      sentParameters: [],
      messages: [
        {
          role: "assistant",
          content: [
            { type: "reasoning", text: "plan", origin: "gemini" },
            { type: "reasoning", text: "", encrypted: "g-sig", id: "call_9", origin: "gemini" },
            { type: "tool_call", id: "call_9", name: "get", arguments: "{}" },
          ],
        },
      ],
    };
    expect((openaiChatUpstream.encodeRequest(req, "m").messages as any[])[0].reasoning_details).toStrictEqual([
      { type: "reasoning.text", text: "plan", format: "google-gemini-v1", index: 0 },
      { type: "reasoning.encrypted", data: "g-sig", index: 1, id: "call_9", format: "google-gemini-v1" },
    ]);
  });

  test("inbound decode then upstream encode keeps the conversation", () => {
    const body = {
      model: "acme/alpha",
      messages: [
        { role: "system", content: "rules" },
        { role: "user", content: "hi" },
        { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: '{"x":[1,2]}' } }] },
        { role: "tool", tool_call_id: "c1", content: "ok" },
      ],
      temperature: 1,
      max_completion_tokens: 64,
      stop: ["x"],
      tools: [{ type: "function", function: { name: "f", parameters: { type: "object" } } }],
      tool_choice: "auto",
    };
    const ir = openaiChatInbound.decodeRequest(body as ChatRequestBody);
    expect(openaiChatUpstream.encodeRequest(ir, "alpha")).toStrictEqual({
      model: "alpha",
      messages: body.messages,
      max_tokens: 64,
      temperature: 1,
      stop: ["x"],
      tools: body.tools,
      tool_choice: "auto",
    });
  });
});
