import { describe, expect, test } from "bun:test";
import { GatewayError } from "../../../src/errors";
import { openaiChatInbound } from "../../../src/formats/openai-chat";
import type { ChatRequestBody } from "../../../src/formats/openai-chat/schema";

const decode = (body: Record<string, unknown>, headers?: Headers) => openaiChatInbound.decodeRequest(body as ChatRequestBody, headers);
const user = { role: "user", content: "hi" };

describe("decodeRequest messages", () => {
  test("system and developer become IR system messages in place", () => {
    const ir = decode({
      messages: [
        { role: "system", content: "rules" },
        user,
        { role: "developer", content: [{ type: "text", text: "more", cache_control: { type: "ephemeral", ttl: "1h" } }] },
      ],
    });
    expect(ir.messages).toStrictEqual([
      { role: "system", content: [{ type: "text", text: "rules" }] },
      { role: "user", content: [{ type: "text", text: "hi" }] },
      { role: "system", content: [{ type: "text", text: "more", cacheControl: { type: "ephemeral", ttl: "1h" } }] },
    ]);
  });

  test("user parts: text, URL image, data: image, file", () => {
    const ir = decode({
      messages: [
        {
          role: "user",
          name: "ann",
          content: [
            { type: "text", text: "see" },
            { type: "image_url", image_url: { url: "https://x.test/cat.png", detail: "low" } },
            { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
            { type: "file", file: { filename: "a.pdf", file_data: "data:application/pdf;base64,JVBERi0=" } },
            { type: "file", file: { file_data: "https://x.test/b.pdf" } },
          ],
        },
      ],
    });
    expect(ir.messages).toStrictEqual([
      {
        role: "user",
        name: "ann",
        content: [
          { type: "text", text: "see" },
          { type: "image", source: { kind: "url", url: "https://x.test/cat.png" }, detail: "low" },
          { type: "image", source: { kind: "base64", mediaType: "image/png", data: "iVBORw0KGgo=" } },
          { type: "file", filename: "a.pdf", mediaType: "application/pdf", data: "JVBERi0=" },
          { type: "file", url: "https://x.test/b.pdf" },
        ],
      },
    ]);
  });

  test("file_id parts are refused: no upstream but the one holding the upload could read them", () => {
    const body = { messages: [{ role: "user", content: [{ type: "file", file: { file_id: "file-1" } }] }] };
    expect(() => decode(body)).toThrow("file content parts need file_data; file_id is not supported");
  });

  test("audio parts are refused rather than dropped", () => {
    const body = { messages: [{ role: "user", content: [{ type: "input_audio", input_audio: { data: "AA", format: "wav" } }] }] };
    expect(() => decode(body)).toThrow(GatewayError);
  });

  test("assistant content, tool calls, refusal and tool results", () => {
    const ir = decode({
      messages: [
        user,
        {
          role: "assistant",
          content: "calling",
          refusal: "no",
          tool_calls: [
            { id: "call_a", type: "function", function: { name: "get", arguments: '{"q":1}' } },
            { id: "call_b", type: "function", function: { name: "put", arguments: "{}" } },
          ],
        },
        { role: "tool", tool_call_id: "call_a", content: "42" },
        { role: "tool", tool_call_id: "call_b", content: [{ type: "text", text: "ok" }] },
      ],
    });
    expect(ir.messages.slice(1)).toStrictEqual([
      {
        role: "assistant",
        content: [
          { type: "text", text: "calling" },
          { type: "refusal", refusal: "no" },
          { type: "tool_call", id: "call_a", name: "get", arguments: '{"q":1}' },
          { type: "tool_call", id: "call_b", name: "put", arguments: "{}" },
        ],
      },
      { role: "tool", toolCallId: "call_a", content: "42" },
      { role: "tool", toolCallId: "call_b", content: [{ type: "text", text: "ok" }] },
    ]);
  });

  test("reasoning_details map to reasoning parts by format", () => {
    const ir = decode({
      messages: [
        user,
        {
          role: "assistant",
          content: "answer",
          reasoning: "ignored when details exist",
          reasoning_details: [
            { type: "reasoning.text", text: "think", signature: "sig-1", format: "anthropic-claude-v1", index: 0 },
            { type: "reasoning.encrypted", data: "redacted-data", format: "anthropic-claude-v1", index: 1 },
            { type: "reasoning.summary", summary: "sum", id: "rs_1", format: "openai-responses-v1", index: 2 },
            { type: "reasoning.encrypted", data: "enc-1", id: "rs_1", format: "openai-responses-v1", index: 3 },
            { type: "reasoning.encrypted", data: "enc-2", id: "rs_2", format: "openai-responses-v1", index: 4 },
            { type: "reasoning.text", text: "gem", signature: "g-sig", format: "google-gemini-v1", index: 5 },
            { type: "reasoning.text", text: "plain", format: "unknown", index: 6 },
            { type: "reasoning.server_tool_call", arguments: "{}", result: "r", tool_name: "web", index: 7 },
          ],
        },
      ],
    });
    expect(ir.messages[1]).toStrictEqual({
      role: "assistant",
      content: [
        { type: "reasoning", text: "think", signature: "sig-1", origin: "anthropic-messages" },
        { type: "reasoning", text: "", encrypted: "redacted-data", redacted: true, origin: "anthropic-messages" },
        { type: "reasoning", text: "sum", summary: true, id: "rs_1", encrypted: "enc-1", origin: "openai-responses" },
        { type: "reasoning", text: "", encrypted: "enc-2", id: "rs_2", origin: "openai-responses" },
        { type: "reasoning", text: "gem", signature: "g-sig", origin: "gemini" },
        { type: "reasoning", text: "plain", origin: "unknown" },
        { type: "text", text: "answer" },
      ],
    });
  });

  test("a plain reasoning string becomes reasoning of unknown origin", () => {
    const ir = decode({ messages: [user, { role: "assistant", content: "a", reasoning: "hmm" }] });
    expect(ir.messages[1]).toStrictEqual({
      role: "assistant",
      content: [
        { type: "reasoning", text: "hmm", origin: "unknown" },
        { type: "text", text: "a" },
      ],
    });
  });
});

describe("decodeRequest parameters", () => {
  test("maps every parameter and lists the sent ones", () => {
    const ir = decode(
      {
        model: "acme/alpha",
        models: ["acme/beta"],
        messages: [user],
        stream: true,
        temperature: 0.5,
        top_p: 0.9,
        top_k: 40,
        frequency_penalty: 0.1,
        presence_penalty: 0.2,
        repetition_penalty: 1.1,
        min_p: 0.05,
        top_a: 0.3,
        seed: 7,
        max_tokens: 50,
        max_completion_tokens: 100,
        stop: "END",
        logit_bias: { "1": 2 },
        logprobs: true,
        top_logprobs: 3,
        tools: [
          { type: "function", function: { name: "get", description: "d", parameters: { type: "object" }, strict: true }, cache_control: { type: "ephemeral" } },
          { type: "openrouter:web_search" },
        ],
        tool_choice: "required",
        parallel_tool_calls: false,
        response_format: { type: "json_schema", json_schema: { name: "out", schema: { type: "object" }, description: "dd", strict: true } },
        reasoning_effort: "high",
        service_tier: "flex",
        user: "u-1",
        session_id: "s-1",
        metadata: { k: "v" },
        provider: { only: ["acme-cloud"] },
        trace: { trace_id: "t-1" },
        plugins: [{ id: "web" }],
        preset: "p",
        prompt_cache_key: "pk",
        cache_control: { type: "ephemeral", ttl: "1h" },
      },
      new Headers({ "x-session-id": "from-header" }),
    );
    expect(ir).toStrictEqual({
      model: "acme/alpha",
      models: ["acme/beta"],
      messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
      stream: true,
      maxOutputTokens: 100,
      temperature: 0.5,
      topP: 0.9,
      topK: 40,
      frequencyPenalty: 0.1,
      presencePenalty: 0.2,
      repetitionPenalty: 1.1,
      minP: 0.05,
      topA: 0.3,
      seed: 7,
      stop: ["END"],
      logitBias: { "1": 2 },
      logprobs: true,
      topLogprobs: 3,
      tools: [{ type: "function", name: "get", description: "d", parameters: { type: "object" }, strict: true, cacheControl: { type: "ephemeral" } }],
      toolChoice: { type: "required" },
      parallelToolCalls: false,
      responseFormat: { type: "json_schema", name: "out", schema: { type: "object" }, description: "dd", strict: true },
      reasoning: { effort: "high" },
      serviceTier: "flex",
      user: "u-1",
      sessionId: "s-1",
      metadata: { k: "v" },
      provider: { only: ["acme-cloud"] },
      trace: { trace_id: "t-1" },
      plugins: [{ id: "web" }],
      preset: "p",
      promptCacheKey: "pk",
      cacheControl: { type: "ephemeral", ttl: "1h" },
      sentParameters: [
        "temperature",
        "top_p",
        "top_k",
        "frequency_penalty",
        "presence_penalty",
        "repetition_penalty",
        "min_p",
        "top_a",
        "seed",
        "max_tokens",
        "stop",
        "logit_bias",
        "logprobs",
        "top_logprobs",
        "tools",
        "tool_choice",
        "parallel_tool_calls",
        "response_format",
        "reasoning",
        "structured_outputs",
      ],
    });
  });

  test("a minimal body gives a minimal IR request", () => {
    expect(decode({ messages: [user] })).toStrictEqual({
      messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
      stream: false,
      sentParameters: [],
    });
  });

  test("nulls count as not sent; max_tokens alone still maps", () => {
    const ir = decode({ messages: [user], temperature: null, stop: null, max_tokens: 20, max_completion_tokens: null });
    expect(ir.temperature).toBeUndefined();
    expect(ir.stop).toBeUndefined();
    expect(ir.maxOutputTokens).toBe(20);
    expect(ir.sentParameters).toStrictEqual(["max_tokens"]);
  });

  test("aliases count as the parameter they stand for, once and in its place", () => {
    expect(decode({ messages: [user], max_completion_tokens: 5, seed: 1 }).sentParameters).toStrictEqual(["seed", "max_tokens"]);
    expect(decode({ messages: [user], max_completion_tokens: 5, max_tokens: 9, stop: "x" }).sentParameters).toStrictEqual(["max_tokens", "stop"]);
    expect(decode({ messages: [user], reasoning_effort: "low", temperature: 1 }).sentParameters).toStrictEqual(["temperature", "reasoning"]);
    expect(decode({ messages: [user], reasoning_effort: "low", reasoning: { effort: "high" } }).sentParameters).toStrictEqual(["reasoning"]);
    expect(
      decode({ messages: [user], response_format: { type: "json_schema", json_schema: { name: "o", schema: {} } }, reasoning_effort: "low" }).sentParameters,
    ).toStrictEqual(["response_format", "reasoning", "structured_outputs"]);
  });

  test("session id falls back to the x-session-id header", () => {
    expect(decode({ messages: [user] }, new Headers({ "x-session-id": "h-1" })).sessionId).toBe("h-1");
  });

  test("reasoning object wins over reasoning_effort; effort none disables", () => {
    expect(decode({ messages: [user], reasoning: { effort: "low", summary: "auto", max_tokens: 2000 }, reasoning_effort: "high" }).reasoning).toStrictEqual({
      effort: "low",
      maxTokens: 2000,
      summary: "auto",
    });
    expect(decode({ messages: [user], reasoning_effort: "none" }).reasoning).toStrictEqual({ enabled: false });
    expect(decode({ messages: [user], reasoning: { enabled: true } }).reasoning).toStrictEqual({ enabled: true });
    expect(decode({ messages: [user], reasoning: { enabled: false, effort: "high" } }).reasoning).toStrictEqual({ effort: "high", enabled: false });
  });

  test("tool_choice forms", () => {
    const choice = (tool_choice: unknown) => decode({ messages: [user], tool_choice }).toolChoice;
    expect(choice("auto")).toStrictEqual({ type: "auto" });
    expect(choice("none")).toStrictEqual({ type: "none" });
    expect(choice({ type: "function", function: { name: "get" } })).toStrictEqual({ type: "tool", name: "get" });
    expect(choice({ type: "openrouter:web_search" })).toBeUndefined();
  });

  test("response_format text / json_object; json_object is not structured_outputs", () => {
    const ir = decode({ messages: [user], response_format: { type: "json_object" } });
    expect(ir.responseFormat).toStrictEqual({ type: "json_object" });
    expect(ir.sentParameters).toStrictEqual(["response_format"]);
    expect(decode({ messages: [user], response_format: { type: "text" } }).responseFormat).toStrictEqual({ type: "text" });
  });
});
