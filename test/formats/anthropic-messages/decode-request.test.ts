import { describe, expect, test } from "bun:test";
import { GatewayError } from "../../../src/errors";
import { anthropicInbound } from "../../../src/formats/anthropic-messages";
import type { MessagesRequestBody } from "../../../src/formats/anthropic-messages/schema";
import { packForeignSignature } from "../../../src/formats/reasoning-signature";

const decode = (body: Partial<MessagesRequestBody>) =>
  anthropicInbound.decodeRequest({ model: "anthropic/claude", messages: [], ...body } as MessagesRequestBody);

describe("anthropic decodeRequest", () => {
  test("system, content blocks, tool results and parameters", () => {
    const req = decode({
      system: [{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral", ttl: "1h" } }],
      stream: true,
      max_tokens: 1000,
      temperature: 0.2,
      top_p: 0.9,
      top_k: 40,
      stop_sequences: ["END"],
      metadata: { user_id: "meta-user" },
      session_id: "s1",
      provider: { order: ["anthropic"] },
      service_tier: "priority",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Look:" },
            { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBOR" } },
            { type: "image", source: { type: "url", url: "https://x.test/a.jpg" }, cache_control: { type: "ephemeral" } },
            { type: "document", source: { type: "base64", media_type: "application/pdf", data: "JVBER" }, title: "a.pdf" },
          ],
        },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "hmm", signature: "sig-native" },
            { type: "redacted_thinking", data: "opaque" },
            { type: "text", text: "Calling." },
            { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } },
            { type: "tool_use", id: "toolu_2", name: "now", input: {} },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "toolu_1", content: "18C" },
            { type: "text", text: "and?" },
            {
              type: "tool_result",
              tool_use_id: "toolu_2",
              is_error: true,
              content: [{ type: "text", text: "clock broken" }],
            },
          ],
        },
      ],
      tools: [
        {
          name: "get_weather",
          description: "Weather",
          input_schema: { type: "object", properties: { city: { type: "string" } } },
          cache_control: { type: "ephemeral" },
        },
        { type: "web_search_20250305", name: "web_search" } as never,
      ],
      tool_choice: { type: "any", disable_parallel_tool_use: true },
      thinking: { type: "enabled", budget_tokens: 2048 },
    });
    expect(req).toStrictEqual({
      model: "anthropic/claude",
      stream: true,
      messages: [
        { role: "system", content: [{ type: "text", text: "Be brief.", cacheControl: { type: "ephemeral", ttl: "1h" } }] },
        {
          role: "user",
          content: [
            { type: "text", text: "Look:" },
            { type: "image", source: { kind: "base64", mediaType: "image/png", data: "iVBOR" } },
            { type: "image", source: { kind: "url", url: "https://x.test/a.jpg" }, cacheControl: { type: "ephemeral" } },
            { type: "file", mediaType: "application/pdf", data: "JVBER", filename: "a.pdf" },
          ],
        },
        {
          role: "assistant",
          content: [
            { type: "reasoning", text: "hmm", signature: "sig-native", origin: "anthropic-messages" },
            { type: "reasoning", text: "", redacted: true, encrypted: "opaque", origin: "anthropic-messages" },
            { type: "text", text: "Calling." },
            { type: "tool_call", id: "toolu_1", name: "get_weather", arguments: '{"city":"Paris"}' },
            { type: "tool_call", id: "toolu_2", name: "now", arguments: "{}" },
          ],
        },
        { role: "tool", toolCallId: "toolu_1", content: "18C" },
        { role: "user", content: [{ type: "text", text: "and?" }] },
        { role: "tool", toolCallId: "toolu_2", content: [{ type: "text", text: "clock broken" }], isError: true },
      ],
      maxOutputTokens: 1000,
      temperature: 0.2,
      topP: 0.9,
      topK: 40,
      stop: ["END"],
      tools: [
        {
          type: "function",
          name: "get_weather",
          description: "Weather",
          parameters: { type: "object", properties: { city: { type: "string" } } },
          cacheControl: { type: "ephemeral" },
        },
      ],
      toolChoice: { type: "required" },
      parallelToolCalls: false,
      reasoning: { enabled: true, maxTokens: 2048 },
      user: "meta-user",
      sessionId: "s1",
      provider: { order: ["anthropic"] },
      serviceTier: "priority",
      sentParameters: ["max_tokens", "temperature", "top_p", "top_k", "stop", "tools", "tool_choice", "parallel_tool_calls", "reasoning"],
    });
  });

  test("string content, explicit user wins over metadata, output_config", () => {
    const req = decode({
      system: "sys",
      user: "explicit",
      metadata: { user_id: "meta" },
      messages: [{ role: "user", content: "hi" }],
      thinking: { type: "adaptive" },
      output_config: { effort: "high", format: { type: "json_schema", schema: { type: "object" } } },
      models: ["a/b"],
      plugins: [{ id: "web" }],
      preset: "p",
      trace: { trace_id: "t" },
    });
    expect(req).toStrictEqual({
      model: "anthropic/claude",
      models: ["a/b"],
      stream: false,
      messages: [
        { role: "system", content: [{ type: "text", text: "sys" }] },
        { role: "user", content: [{ type: "text", text: "hi" }] },
      ],
      reasoning: { enabled: true, effort: "high" },
      responseFormat: { type: "json_schema", name: "output", schema: { type: "object" } },
      user: "explicit",
      plugins: [{ id: "web" }],
      trace: { trace_id: "t" },
      preset: "p",
      sentParameters: ["reasoning", "response_format"],
    });
  });

  test("thinking disabled, tool choice kinds, fallbacks become models", () => {
    expect(decode({ thinking: { type: "disabled" } }).reasoning).toEqual({ enabled: false });
    expect(decode({ tool_choice: { type: "auto" } }).toolChoice).toEqual({ type: "auto" });
    expect(decode({ tool_choice: { type: "none" } }).toolChoice).toEqual({ type: "none" });
    expect(decode({ tool_choice: { type: "tool", name: "f" } }).toolChoice).toEqual({ type: "tool", name: "f" });
    expect(decode({ tool_choice: { type: "auto" } }).parallelToolCalls).toBeUndefined();
    expect(decode({ fallbacks: [{ model: "x/y" }, { model: "z/w" }] }).models).toEqual(["x/y", "z/w"]);
    expect(decode({ messages: null }).messages).toEqual([]);
  });

  test("plain-text documents become text/plain files; system role inside messages", () => {
    const req = decode({
      messages: [
        { role: "system", content: "inline system" },
        { role: "user", content: [{ type: "document", source: { type: "text", media_type: "text/plain", data: "héllo" } }] },
      ],
    });
    expect(req.messages).toStrictEqual([
      { role: "system", content: [{ type: "text", text: "inline system" }] },
      { role: "user", content: [{ type: "file", mediaType: "text/plain", data: Buffer.from("héllo").toString("base64") }] },
    ]);
  });

  test("a packed foreign signature restores the foreign reasoning", () => {
    const signature = packForeignSignature({
      type: "reasoning",
      text: "summary",
      origin: "openai-responses",
      id: "rs_123",
      encrypted: "gAAAA-enc",
    });
    const req = decode({ messages: [{ role: "assistant", content: [{ type: "thinking", thinking: "summary", signature }] }] });
    expect(req.messages).toStrictEqual([
      {
        role: "assistant",
        content: [{ type: "reasoning", text: "summary", origin: "openai-responses", id: "rs_123", encrypted: "gAAAA-enc" }],
      },
    ]);
  });

  test("a tool's eager_input_streaming is kept, true or false; null leaves the default", () => {
    const tool = (eager: boolean | null) => ({ name: "f", input_schema: { type: "object" }, eager_input_streaming: eager });
    const req = decode({ tools: [tool(true), tool(false), tool(null)] });
    expect(req.tools).toStrictEqual([
      { type: "function", name: "f", parameters: { type: "object" }, eagerInputStreaming: true },
      { type: "function", name: "f", parameters: { type: "object" }, eagerInputStreaming: false },
      { type: "function", name: "f", parameters: { type: "object" } },
    ]);
  });

  test("a request with a thread is refused with Anthropic's thread_unsupported_request; a null thread is no thread", () => {
    let thrown: unknown;
    try {
      decode({ thread: { type: "create" } });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(GatewayError);
    expect(thrown).toMatchObject({ status: 400, metadata: { error_code: "thread_unsupported_request" } });
    expect((thrown as Error).message).toContain("'thread'");
    expect(() => decode({ thread: { type: "continue", previous_message_id: "msg_1" } })).toThrow(GatewayError);
    expect(decode({ thread: null }).messages).toStrictEqual([]);
  });
});
