import { describe, expect, test } from "bun:test";
import { geminiUpstream } from "../../../src/formats/gemini";
import type { IRRequest } from "../../../src/ir/types";

const base = (over: Partial<IRRequest>): IRRequest => ({ messages: [], stream: false, sentParameters: [], ...over });
const encode = (over: Partial<IRRequest>, model = "gemini-3-flash-preview") => geminiUpstream.encodeRequest(base(over), model);

describe("gemini encodeRequest", () => {
  test("system, contents, media, tools, tool results and parameters", () => {
    const body = encode({
      model: "google/gemini",
      stream: true,
      messages: [
        { role: "system", content: [{ type: "text", text: "A" }] },
        { role: "system", content: [{ type: "text", text: "B" }] },
        {
          role: "user",
          content: [
            { type: "text", text: "hi" },
            { type: "image", source: { kind: "url", url: "data:image/png;base64,AAAA" } },
            { type: "image", source: { kind: "url", url: "https://x.test/i.webp?size=2" } },
            { type: "image", source: { kind: "base64", mediaType: "image/jpeg", data: "BBBB" } },
            { type: "file", filename: "doc.pdf", data: "JVBER", mediaType: "application/pdf" },
            { type: "file", url: "gs://bucket/doc.pdf" },
          ],
        },
        {
          role: "assistant",
          content: [
            { type: "reasoning", text: "thinking aloud", origin: "gemini" },
            { type: "reasoning", text: "", encrypted: "sig-f", id: "call_1", origin: "gemini" },
            { type: "reasoning", text: "other", signature: "anth", origin: "anthropic-messages" },
            { type: "text", text: "ok" },
            { type: "tool_call", id: "call_1", name: "f", arguments: '{"a":1}' },
            { type: "tool_call", id: "call_2", name: "g", arguments: "{not json" },
          ],
        },
        { role: "tool", toolCallId: "call_1", content: "one" },
        {
          role: "tool",
          toolCallId: "call_2",
          content: [
            { type: "text", text: "two" },
            { type: "image", source: { kind: "base64", mediaType: "image/png", data: "CCCC" } },
          ],
          isError: true,
        },
        { role: "user", content: [{ type: "text", text: "next" }] },
      ],
      maxOutputTokens: 500,
      temperature: 0.5,
      topP: 0.8,
      topK: 5,
      seed: 7,
      presencePenalty: 0.1,
      frequencyPenalty: 0.2,
      stop: ["1", "2", "3", "4", "5", "6"],
      tools: [
        { type: "function", name: "f", description: "F", parameters: { type: "object", properties: { a: { type: "integer" } } } },
        { type: "function", name: "g" },
      ],
      toolChoice: { type: "tool", name: "g" },
      parallelToolCalls: false,
      user: "u1",
      provider: { sort: "price" },
      plugins: [{ id: "web" }],
      sessionId: "s",
    });
    expect(body).toStrictEqual({
      systemInstruction: { parts: [{ text: "A" }, { text: "B" }] },
      contents: [
        {
          role: "user",
          parts: [
            { text: "hi" },
            { inlineData: { mimeType: "image/png", data: "AAAA" } },
            { fileData: { mimeType: "image/webp", fileUri: "https://x.test/i.webp?size=2" } },
            { inlineData: { mimeType: "image/jpeg", data: "BBBB" } },
            { inlineData: { mimeType: "application/pdf", data: "JVBER" } },
            { fileData: { mimeType: "application/pdf", fileUri: "gs://bucket/doc.pdf" } },
          ],
        },
        {
          role: "model",
          parts: [
            { text: "ok" },
            { functionCall: { id: "call_1", name: "f", args: { a: 1 } }, thoughtSignature: "sig-f" },
            { functionCall: { id: "call_2", name: "g", args: {} } },
          ],
        },
        {
          role: "user",
          parts: [
            { functionResponse: { id: "call_1", name: "f", response: { result: "one" } } },
            { functionResponse: { id: "call_2", name: "g", response: { error: "two" } } },
            { inlineData: { mimeType: "image/png", data: "CCCC" } },
          ],
        },
        { role: "user", parts: [{ text: "next" }] },
      ],
      tools: [
        {
          functionDeclarations: [
            { name: "f", description: "F", parametersJsonSchema: { type: "object", properties: { a: { type: "integer" } } } },
            { name: "g" },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["g"] } },
      generationConfig: {
        maxOutputTokens: 500,
        temperature: 0.5,
        topP: 0.8,
        topK: 5,
        stopSequences: ["1", "2", "3", "4", "5"],
        seed: 7,
        presencePenalty: 0.1,
        frequencyPenalty: 0.2,
      },
    });
  });

  test("tool_choice modes", () => {
    const tools = [{ type: "function" as const, name: "f" }];
    const modes = (["auto", "none", "required"] as const).map((type) => (encode({ tools, toolChoice: { type } }).toolConfig as any).functionCallingConfig.mode);
    expect(modes).toEqual(["AUTO", "NONE", "ANY"]);
    expect(encode({ tools }).toolConfig).toBeUndefined();
  });

  test("calls another model made carry Google's placeholder signature on the first call of each turn", () => {
    const body = encode({
      messages: [
        { role: "user", content: [{ type: "text", text: "go" }] },
        {
          role: "assistant",
          content: [
            { type: "reasoning", text: "", signature: "anthropic-sig", origin: "anthropic-messages" },
            { type: "tool_call", id: "toolu_1", name: "f", arguments: "{}" },
            { type: "tool_call", id: "toolu_2", name: "f", arguments: "{}" },
          ],
        },
        { role: "tool", toolCallId: "toolu_1", content: "a" },
        { role: "tool", toolCallId: "toolu_2", content: "b" },
        { role: "assistant", content: [{ type: "tool_call", id: "toolu_3", name: "f", arguments: '{"x":"y"}' }] },
        { role: "tool", toolCallId: "toolu_3", content: "c" },
      ],
    });
    expect((body.contents as any[]).filter((c) => c.role === "model").map((c) => c.parts)).toStrictEqual([
      [
        { functionCall: { id: "toolu_1", name: "f", args: {} }, thoughtSignature: "skip_thought_signature_validator" },
        { functionCall: { id: "toolu_2", name: "f", args: {} } },
      ],
      [{ functionCall: { id: "toolu_3", name: "f", args: { x: "y" } }, thoughtSignature: "skip_thought_signature_validator" }],
    ]);
  });

  test("a text part's signature goes back on the last text part; signatures of other origins never go", () => {
    const body = encode({
      messages: [
        { role: "user", content: [{ type: "text", text: "go" }] },
        {
          role: "assistant",
          content: [
            { type: "reasoning", text: "plan", encrypted: "text-sig", origin: "gemini" },
            { type: "reasoning", text: "", encrypted: "rs-enc", id: "rs_1", origin: "openai-responses" },
            { type: "text", text: "one" },
            { type: "text", text: "two" },
          ],
        },
      ],
    });
    expect((body.contents as any[])[1]).toStrictEqual({ role: "model", parts: [{ text: "one" }, { text: "two", thoughtSignature: "text-sig" }] });
  });

  test("structured output", () => {
    const schema = { type: "object", properties: { a: { type: "string" } }, required: ["a"] };
    expect(encode({ responseFormat: { type: "json_schema", name: "x", schema, strict: true } }).generationConfig).toStrictEqual({
      responseMimeType: "application/json",
      responseJsonSchema: schema,
    });
    expect(encode({ responseFormat: { type: "json_object" } }).generationConfig).toStrictEqual({ responseMimeType: "application/json" });
    expect(encode({ responseFormat: { type: "text" } }).generationConfig).toBeUndefined();
  });

  test("no model and no stream switch in the body: both are in the URL", () => {
    const body = encode({ stream: true, messages: [{ role: "user", content: [{ type: "text", text: "x" }] }] });
    expect(body).toStrictEqual({ contents: [{ role: "user", parts: [{ text: "x" }] }] });
  });
});
