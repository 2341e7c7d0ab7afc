import { describe, expect, test } from "bun:test";
import { GatewayError } from "../../../src/errors";
import { openaiResponsesInbound, type ResponsesRequestBody } from "../../../src/formats/openai-responses";
import { packForeignSignature } from "../../../src/formats/reasoning-signature";

const decode = (body: ResponsesRequestBody, headers?: Headers) => openaiResponsesInbound.decodeRequest(body, headers);

describe("decodeRequest", () => {
  test("instructions and a string input become a system and a user message", () => {
    expect(decode({ model: "openai/gpt-5", instructions: "Be brief.", input: "hi" })).toEqual({
      model: "openai/gpt-5",
      messages: [
        { role: "system", content: [{ type: "text", text: "Be brief." }] },
        { role: "user", content: [{ type: "text", text: "hi" }] },
      ],
      stream: false,
      sentParameters: [],
      instructions: "Be brief.",
    });
  });

  test("a full conversation keeps order, groups the assistant turn and maps every part", () => {
    const ir = decode({
      input: [
        { role: "developer", content: "dev rules" },
        { type: "message", role: "system", content: [{ type: "input_text", text: "sys" }] },
        {
          type: "message",
          role: "user",
          content: [
            { type: "input_text", text: "look" },
            { type: "input_image", detail: "low", image_url: "https://x.test/a.png" },
            { type: "input_image", image_url: "data:image/png;base64,iVBOR" },
            { type: "input_image", detail: "original", image_url: "https://x.test/b.png" },
            { type: "input_file", filename: "a.pdf", file_data: "data:application/pdf;base64,JVBER" },
            { type: "input_file", file_url: "https://x.test/a.pdf" },
          ],
        },
        {
          type: "reasoning",
          id: "rs_1",
          summary: [
            { type: "summary_text", text: "one" },
            { type: "summary_text", text: "two" },
          ],
          encrypted_content: "ENC",
        },
        {
          type: "message",
          role: "assistant",
          content: [
            { type: "output_text", text: "Let me check." },
            { type: "refusal", refusal: "Not that." },
          ],
        },
        { type: "function_call", id: "fc_1", call_id: "call_1", name: "get", arguments: '{"a":1}' },
        { type: "function_call", call_id: "call_2", name: "get", arguments: '{"a":2}' },
        { type: "function_call_output", call_id: "call_1", output: "1" },
        {
          type: "function_call_output",
          call_id: "call_2",
          output: [
            { type: "input_text", text: "2" },
            { type: "input_image", image_url: "https://x.test/c.png" },
          ],
        },
        { role: "assistant", content: "Done." },
      ],
    });
    expect(ir.messages).toEqual([
      { role: "system", content: [{ type: "text", text: "dev rules" }] },
      { role: "system", content: [{ type: "text", text: "sys" }] },
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image", source: { kind: "url", url: "https://x.test/a.png" }, detail: "low" },
          { type: "image", source: { kind: "base64", mediaType: "image/png", data: "iVBOR" } },
          { type: "image", source: { kind: "url", url: "https://x.test/b.png" }, detail: "high" },
          { type: "file", filename: "a.pdf", mediaType: "application/pdf", data: "JVBER" },
          { type: "file", url: "https://x.test/a.pdf" },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "one\n\ntwo", summary: true, id: "rs_1", encrypted: "ENC", origin: "openai-responses" },
          { type: "text", text: "Let me check." },
          { type: "refusal", refusal: "Not that." },
          { type: "tool_call", id: "call_1", name: "get", arguments: '{"a":1}' },
          { type: "tool_call", id: "call_2", name: "get", arguments: '{"a":2}' },
        ],
      },
      { role: "tool", toolCallId: "call_1", content: "1" },
      {
        role: "tool",
        toolCallId: "call_2",
        content: [
          { type: "text", text: "2" },
          { type: "image", source: { kind: "url", url: "https://x.test/c.png" } },
        ],
      },
      { role: "assistant", content: [{ type: "text", text: "Done." }] },
    ]);
  });

  test("raw reasoning_text content decodes without the summary flag", () => {
    const ir = decode({ input: [{ type: "reasoning", id: "rs_2", summary: [], content: [{ type: "reasoning_text", text: "raw" }] }] });
    expect(ir.messages).toEqual([{ role: "assistant", content: [{ type: "reasoning", text: "raw", id: "rs_2", origin: "openai-responses" }] }]);
  });

  test("reasoning another upstream produced comes back with its origin and signature", () => {
    const packed = packForeignSignature({ type: "reasoning", text: "t", signature: "SIG", origin: "anthropic-messages" });
    const ir = decode({
      input: [{ type: "reasoning", id: "rs_gen_0", summary: [], content: [{ type: "reasoning_text", text: "t" }], encrypted_content: packed }],
    });
    expect(ir.messages).toEqual([{ role: "assistant", content: [{ type: "reasoning", text: "t", signature: "SIG", origin: "anthropic-messages" }] }]);
  });

  test("parameters, tools, format, reasoning and gateway fields", () => {
    const ir = decode(
      {
        model: "openai/gpt-5",
        models: ["anthropic/claude"],
        input: "hi",
        stream: true,
        max_output_tokens: 800,
        temperature: 0.5,
        top_p: 0.9,
        top_k: 40,
        frequency_penalty: 0.1,
        presence_penalty: 0.2,
        top_logprobs: 3,
        tools: [{ type: "function", name: "get", description: "d", parameters: { type: "object" }, strict: true }],
        tool_choice: { type: "function", name: "get" },
        parallel_tool_calls: false,
        text: { format: { type: "json_schema", name: "out", schema: { type: "object" }, description: "o", strict: true } },
        reasoning: { effort: "high", summary: "concise", max_tokens: 4000 },
        metadata: { team: "a" },
        user: "u-1",
        provider: { only: ["openai"] },
        trace: { trace_id: "t" },
        plugins: [{ id: "web" }],
        preset: "p",
        service_tier: "flex",
        prompt_cache_key: "k",
        cache_control: { type: "ephemeral" },
      },
      new Headers({ "x-session-id": "from-header" }),
    );
    expect(ir).toEqual({
      model: "openai/gpt-5",
      models: ["anthropic/claude"],
      messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
      stream: true,
      maxOutputTokens: 800,
      temperature: 0.5,
      topP: 0.9,
      topK: 40,
      frequencyPenalty: 0.1,
      presencePenalty: 0.2,
      topLogprobs: 3,
      tools: [{ type: "function", name: "get", description: "d", parameters: { type: "object" }, strict: true }],
      toolChoice: { type: "tool", name: "get" },
      parallelToolCalls: false,
      responseFormat: { type: "json_schema", name: "out", schema: { type: "object" }, description: "o", strict: true },
      reasoning: { effort: "high", summary: "concise", maxTokens: 4000 },
      metadata: { team: "a" },
      user: "u-1",
      sessionId: "from-header",
      provider: { only: ["openai"] },
      trace: { trace_id: "t" },
      plugins: [{ id: "web" }],
      preset: "p",
      serviceTier: "flex",
      promptCacheKey: "k",
      cacheControl: { type: "ephemeral" },
      sentParameters: [
        "temperature",
        "top_p",
        "top_k",
        "frequency_penalty",
        "presence_penalty",
        "max_tokens",
        "top_logprobs",
        "tools",
        "tool_choice",
        "parallel_tool_calls",
        "response_format",
        "structured_outputs",
        "reasoning",
      ],
    });
  });

  test("session_id in the body wins over the header; nulls are not sent parameters", () => {
    const ir = decode(
      { input: "hi", session_id: "body", temperature: null, reasoning: null, text: { format: { type: "text" } } },
      new Headers({ "x-session-id": "header" }),
    );
    expect(ir.sessionId).toBe("body");
    expect(ir.sentParameters).toEqual([]);
    expect(ir.responseFormat).toEqual({ type: "text" });
  });

  test("effort none means reasoning disabled", () => {
    expect(decode({ input: "hi", reasoning: { effort: "none" } }).reasoning).toEqual({ effort: "none", enabled: false });
  });

  test("allowed_tools narrows the tool list", () => {
    const ir = decode({
      input: "hi",
      tools: [
        { type: "function", name: "a", parameters: null },
        { type: "function", name: "b", parameters: null },
      ],
      tool_choice: { type: "allowed_tools", mode: "required", tools: [{ type: "function", name: "b" }] },
    });
    expect(ir.tools).toEqual([{ type: "function", name: "b" }]);
    expect(ir.toolChoice).toEqual({ type: "required" });
  });

  const refused: Array<[string, ResponsesRequestBody, string]> = [
    ["hosted tools", { input: "hi", tools: [{ type: "web_search_preview" }] }, 'tool type "web_search_preview" is not supported by this gateway'],
    ["background mode", { input: "hi", background: true }, "background responses are not supported: the gateway stores no responses"],
    ["stored prompts", { input: "hi", prompt: { id: "p" } }, "stored prompt templates are not supported: send the prompt as input"],
    [
      "file ids",
      { input: [{ role: "user", content: [{ type: "input_image", file_id: "file_1" }] }] },
      "input_image needs image_url: uploaded file ids are not supported",
    ],
    [
      "audio input",
      { input: [{ role: "user", content: [{ type: "input_audio", input_audio: { data: "x", format: "wav" } }] }] },
      "input_audio content is not supported",
    ],
  ];
  for (const [name, body, message] of refused) {
    test(`refuses ${name} with a 400`, () => {
      let error: unknown;
      try {
        decode(body);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(GatewayError);
      expect((error as GatewayError).status).toBe(400);
      expect((error as GatewayError).message).toBe(message);
    });
  }
});
