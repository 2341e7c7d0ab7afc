import { describe, expect, test } from "bun:test";
import { anthropicUpstream } from "../../../src/formats/anthropic-messages";
import type { IRRequest } from "../../../src/ir/types";

const base = (over: Partial<IRRequest>): IRRequest => ({ messages: [], stream: false, sentParameters: [], ...over });

describe("anthropic encodeRequest", () => {
  test("messages, system, tools and parameters", () => {
    const body = anthropicUpstream.encodeRequest(
      base({
        model: "anthropic/claude",
        stream: true,
        messages: [
          { role: "system", content: [{ type: "text", text: "A", cacheControl: { type: "ephemeral" } }] },
          { role: "system", content: [{ type: "text", text: "B" }] },
          {
            role: "user",
            content: [
              { type: "text", text: "hi" },
              { type: "image", source: { kind: "url", url: "data:image/png;base64,AAAA" } },
              { type: "image", source: { kind: "url", url: "https://x.test/i.png" } },
              { type: "image", source: { kind: "base64", mediaType: "image/jpeg", data: "BBBB" } },
              { type: "file", filename: "doc.pdf", data: "JVBER", mediaType: "application/pdf" },
            ],
          },
          {
            role: "assistant",
            content: [
              { type: "reasoning", text: "think", signature: "sig", origin: "anthropic-messages" },
              { type: "reasoning", text: "", redacted: true, encrypted: "red", origin: "anthropic-messages" },
              { type: "reasoning", text: "unsigned", origin: "anthropic-messages" },
              { type: "reasoning", text: "foreign", encrypted: "enc", id: "rs_1", origin: "openai-responses" },
              { type: "text", text: "ok" },
              { type: "tool_call", id: "call_1", name: "f", arguments: '{"a":1}' },
              { type: "tool_call", id: "call_2", name: "g", arguments: "{not json" },
            ],
          },
          { role: "tool", toolCallId: "call_1", content: "one" },
          { role: "tool", toolCallId: "call_2", content: [{ type: "text", text: "two" }], isError: true },
          { role: "user", content: [{ type: "text", text: "next" }] },
        ],
        maxOutputTokens: 500,
        temperature: 0.5,
        topP: 0.8,
        topK: 5,
        stop: ["X"],
        tools: [
          { type: "function", name: "f", description: "F", parameters: { type: "object", properties: {} } },
          { type: "function", name: "g", strict: true, cacheControl: { type: "ephemeral", ttl: "1h" } },
        ],
        toolChoice: { type: "required" },
        parallelToolCalls: false,
        user: "u1",
        provider: { sort: "price" },
        plugins: [{ id: "web" }],
        sessionId: "s",
      }),
      "claude-sonnet-4-5",
    );
    expect(body).toStrictEqual({
      model: "claude-sonnet-4-5",
      system: [
        { type: "text", text: "A", cache_control: { type: "ephemeral" } },
        { type: "text", text: "B" },
      ],
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "hi" },
            { type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } },
            { type: "image", source: { type: "url", url: "https://x.test/i.png" } },
            { type: "image", source: { type: "base64", media_type: "image/jpeg", data: "BBBB" } },
            { type: "document", source: { type: "base64", media_type: "application/pdf", data: "JVBER" }, title: "doc.pdf" },
          ],
        },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "think", signature: "sig" },
            { type: "redacted_thinking", data: "red" },
            { type: "text", text: "ok" },
            { type: "tool_use", id: "call_1", name: "f", input: { a: 1 } },
            { type: "tool_use", id: "call_2", name: "g", input: {} },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "call_1", content: "one" },
            { type: "tool_result", tool_use_id: "call_2", content: [{ type: "text", text: "two" }], is_error: true },
            { type: "text", text: "next" },
          ],
        },
      ],
      max_tokens: 500,
      temperature: 0.5,
      top_p: 0.8,
      top_k: 5,
      stop_sequences: ["X"],
      tools: [
        { name: "f", description: "F", input_schema: { type: "object", properties: {} } },
        { name: "g", input_schema: { type: "object" }, strict: true, cache_control: { type: "ephemeral", ttl: "1h" } },
      ],
      tool_choice: { type: "any", disable_parallel_tool_use: true },
      metadata: { user_id: "u1" },
      stream: true,
    });
  });

  test("max_tokens defaults to 4096; no thinking without reasoning", () => {
    expect(anthropicUpstream.encodeRequest(base({ messages: [{ role: "user", content: [{ type: "text", text: "x" }] }] }), "m")).toStrictEqual({
      model: "m",
      messages: [{ role: "user", content: [{ type: "text", text: "x" }] }],
      max_tokens: 4096,
      stream: false,
    });
  });

  test("thinking budget from maxTokens, effort, minimum, and max_tokens raised above it", () => {
    const enc = (over: Partial<IRRequest>) => anthropicUpstream.encodeRequest(base(over), "m");
    expect(enc({ reasoning: { maxTokens: 2000 }, maxOutputTokens: 8000 })).toMatchObject({
      thinking: { type: "enabled", budget_tokens: 2000 },
      max_tokens: 8000,
    });
    expect(enc({ reasoning: { maxTokens: 10000 }, maxOutputTokens: 3000 })).toMatchObject({
      thinking: { type: "enabled", budget_tokens: 10000 },
      max_tokens: 13000,
    });
    // high = 0.8 of 20000
    expect(enc({ reasoning: { effort: "high" }, maxOutputTokens: 20000 })).toMatchObject({
      thinking: { type: "enabled", budget_tokens: 16000 },
      max_tokens: 20000,
    });
    expect(enc({ reasoning: { maxTokens: 100 } })).toMatchObject({ thinking: { type: "enabled", budget_tokens: 1024 }, max_tokens: 4096 });
    // enabled without effort: medium of the default 32000 allowance
    expect(enc({ reasoning: { enabled: true } })).toMatchObject({ thinking: { type: "enabled", budget_tokens: 16000 }, max_tokens: 20096 });
    expect(enc({ reasoning: { enabled: false, maxTokens: 5000 } }).thinking).toBeUndefined();
    expect(enc({ reasoning: { effort: "none" } }).thinking).toBeUndefined();
    expect(enc({ reasoning: { summary: "auto" } }).thinking).toBeUndefined();
    // thinking forbids temperature / top_k changes
    const withThinking = enc({ reasoning: { maxTokens: 2000 }, temperature: 0.3, topK: 3, topP: 0.97 });
    expect([withThinking.temperature, withThinking.top_k, withThinking.top_p]).toStrictEqual([undefined, undefined, 0.97]);
  });

  test("response formats, tool choices and text documents", () => {
    const enc = (over: Partial<IRRequest>) => anthropicUpstream.encodeRequest(base(over), "m");
    const schema = { type: "object", properties: { a: { type: "string" } }, required: ["a"], additionalProperties: false };
    expect(enc({ responseFormat: { type: "json_schema", name: "x", schema } }).output_config).toStrictEqual({
      format: { type: "json_schema", schema },
    });
    expect(enc({ responseFormat: { type: "json_object" } }).output_config).toStrictEqual({
      format: { type: "json_schema", schema: { type: "object", additionalProperties: true } },
    });
    expect(enc({ responseFormat: { type: "text" } }).output_config).toBeUndefined();
    const tools = [{ type: "function" as const, name: "f" }];
    expect(enc({ tools, toolChoice: { type: "tool", name: "f" } }).tool_choice).toStrictEqual({ type: "tool", name: "f" });
    expect(enc({ tools, toolChoice: { type: "none" }, parallelToolCalls: false }).tool_choice).toStrictEqual({ type: "none" });
    expect(enc({ tools, parallelToolCalls: false }).tool_choice).toStrictEqual({ type: "auto", disable_parallel_tool_use: true });
    expect(enc({ tools }).tool_choice).toBeUndefined();
    expect(enc({ toolChoice: { type: "auto" } }).tool_choice).toBeUndefined();
    const text = Buffer.from("plain words").toString("base64");
    expect(
      enc({
        messages: [
          {
            role: "user",
            content: [
              { type: "file", mediaType: "text/plain", data: text },
              { type: "file", url: "https://x/d.pdf" },
            ],
          },
        ],
      }).messages,
    ).toStrictEqual([
      {
        role: "user",
        content: [
          { type: "document", source: { type: "text", media_type: "text/plain", data: "plain words" } },
          { type: "document", source: { type: "url", url: "https://x/d.pdf" } },
        ],
      },
    ]);
  });

  test("an assistant turn left empty is dropped and its neighbours merged", () => {
    const body = anthropicUpstream.encodeRequest(
      base({
        messages: [
          { role: "user", content: [{ type: "text", text: "a" }] },
          { role: "assistant", content: [{ type: "reasoning", text: "r", encrypted: "e", origin: "openai-responses" }] },
          { role: "user", content: [{ type: "text", text: "b" }] },
        ],
      }),
      "m",
    );
    expect(body.messages).toStrictEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
      },
    ]);
  });

  test("a tool's eager_input_streaming reaches the upstream as given", () => {
    const tools = [
      { type: "function" as const, name: "f", eagerInputStreaming: true },
      { type: "function" as const, name: "g", eagerInputStreaming: false },
      { type: "function" as const, name: "h" },
    ];
    expect(anthropicUpstream.encodeRequest(base({ tools }), "m").tools).toStrictEqual([
      { name: "f", input_schema: { type: "object" }, eager_input_streaming: true },
      { name: "g", input_schema: { type: "object" }, eager_input_streaming: false },
      { name: "h", input_schema: { type: "object" } },
    ]);
  });
});
