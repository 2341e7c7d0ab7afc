import { describe, expect, test } from "bun:test";
import { openaiResponsesUpstream } from "../../../src/formats/openai-responses";
import type { IRRequest } from "../../../src/ir/types";

const encode = (req: IRRequest) => openaiResponsesUpstream.encodeRequest(req, "gpt-5-2025-08-07");

const conversation: IRRequest = {
  model: "openai/gpt-5",
  models: ["x/y"],
  messages: [
    { role: "system", content: [{ type: "text", text: "Be brief." }] },
    {
      role: "user",
      content: [
        { type: "text", text: "look" },
        { type: "image", source: { kind: "url", url: "https://x.test/a.png" }, detail: "low" },
        { type: "image", source: { kind: "base64", mediaType: "image/png", data: "iVBOR" } },
        { type: "file", filename: "a.pdf", mediaType: "application/pdf", data: "JVBER" },
        { type: "file", url: "https://x.test/b.pdf" },
      ],
    },
    {
      role: "assistant",
      content: [
        { type: "reasoning", text: "thinking", summary: true, id: "rs_1", encrypted: "ENC", origin: "openai-responses" },
        { type: "reasoning", text: "claude thought", signature: "SIG", origin: "anthropic-messages" },
        { type: "text", text: "Checking." },
        { type: "refusal", refusal: "Not that." },
        { type: "tool_call", id: "call_1", name: "get", arguments: '{"a":1}' },
        { type: "tool_call", id: "call_2", name: "get", arguments: '{"a":2}' },
      ],
    },
    { role: "tool", toolCallId: "call_1", content: "1" },
    { role: "tool", toolCallId: "call_2", content: [{ type: "text", text: "2" }] },
  ],
  stream: true,
  maxOutputTokens: 1000,
  temperature: 0.3,
  topP: 0.9,
  topK: 40,
  frequencyPenalty: 0.5,
  tools: [
    { type: "function", name: "get", description: "d", parameters: { type: "object" } },
    { type: "function", name: "now", strict: true },
  ],
  toolChoice: { type: "tool", name: "get" },
  parallelToolCalls: true,
  responseFormat: { type: "json_schema", name: "out", schema: { type: "object" }, strict: true },
  reasoning: { effort: "high", summary: "auto" },
  user: "u-1",
  sessionId: "s",
  metadata: { a: "b" },
  provider: { only: ["openai"] },
  serviceTier: "fast",
  promptCacheKey: "k",
  sentParameters: ["temperature"],
};

describe("encodeRequest", () => {
  test("a full conversation becomes Responses input items, without gateway-only fields", () => {
    expect(encode(conversation)).toEqual({
      model: "gpt-5-2025-08-07",
      input: [
        { type: "message", role: "system", content: [{ type: "input_text", text: "Be brief." }] },
        {
          type: "message",
          role: "user",
          content: [
            { type: "input_text", text: "look" },
            { type: "input_image", image_url: "https://x.test/a.png", detail: "low" },
            { type: "input_image", image_url: "data:image/png;base64,iVBOR", detail: "auto" },
            { type: "input_file", filename: "a.pdf", file_data: "data:application/pdf;base64,JVBER" },
            { type: "input_file", file_url: "https://x.test/b.pdf" },
          ],
        },
        { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "thinking" }], encrypted_content: "ENC" },
        {
          type: "message",
          role: "assistant",
          content: [
            { type: "output_text", text: "Checking.", annotations: [] },
            { type: "refusal", refusal: "Not that." },
          ],
        },
        { type: "function_call", call_id: "call_1", name: "get", arguments: '{"a":1}' },
        { type: "function_call", call_id: "call_2", name: "get", arguments: '{"a":2}' },
        { type: "function_call_output", call_id: "call_1", output: "1" },
        { type: "function_call_output", call_id: "call_2", output: [{ type: "input_text", text: "2" }] },
      ],
      max_output_tokens: 1000,
      temperature: 0.3,
      top_p: 0.9,
      reasoning: { effort: "high", summary: "auto" },
      include: ["reasoning.encrypted_content"],
      store: false,
      text: { format: { type: "json_schema", name: "out", schema: { type: "object" }, strict: true } },
      tools: [
        { type: "function", name: "get", description: "d", parameters: { type: "object" }, strict: false },
        { type: "function", name: "now", parameters: { type: "object", properties: {} }, strict: true },
      ],
      tool_choice: { type: "function", name: "get" },
      parallel_tool_calls: true,
      user: "u-1",
      prompt_cache_key: "k",
      service_tier: "priority",
      stream: true,
    });
  });

  const minimal = (extra: Partial<IRRequest>): IRRequest => ({
    messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
    stream: false,
    sentParameters: [],
    ...extra,
  });

  test("a minimal request", () => {
    expect(encode(minimal({}))).toEqual({
      model: "gpt-5-2025-08-07",
      input: [{ type: "message", role: "user", content: [{ type: "input_text", text: "hi" }] }],
      store: false,
      stream: false,
    });
  });

  test("a budget alone becomes an effort", () => {
    const body = encode(minimal({ maxOutputTokens: 10_000, reasoning: { maxTokens: 5_000 } }));
    expect(body.reasoning).toEqual({ effort: "medium" });
    expect(body.include).toEqual(["reasoning.encrypted_content"]);
  });

  test("disabled reasoning is omitted", () => {
    const body = encode(minimal({ reasoning: { enabled: false, effort: "high" } }));
    expect(body.reasoning).toBeUndefined();
    expect(body.include).toBeUndefined();
  });

  test("OpenAI reasoning in the history asks for encrypted content even without a config", () => {
    const body = encode({
      ...minimal({}),
      messages: [
        { role: "user", content: [{ type: "text", text: "hi" }] },
        { role: "assistant", content: [{ type: "reasoning", text: "", id: "rs_9", encrypted: "E", origin: "openai-responses" }] },
      ],
    });
    expect(body.include).toEqual(["reasoning.encrypted_content"]);
    expect(body.input).toEqual([
      { type: "message", role: "user", content: [{ type: "input_text", text: "hi" }] },
      { type: "reasoning", id: "rs_9", summary: [], encrypted_content: "E" },
    ]);
  });

  test("tool choices and json_object format", () => {
    expect(encode(minimal({ toolChoice: { type: "required" }, responseFormat: { type: "json_object" } }))).toMatchObject({
      tool_choice: "required",
      text: { format: { type: "json_object" } },
    });
  });
});
