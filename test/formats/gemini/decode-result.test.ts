import { describe, expect, test } from "bun:test";
import { geminiUpstream } from "../../../src/formats/gemini";
import { UpstreamFormatError } from "../../../src/ir/codec";

const answer = (parts: unknown[], extra: Record<string, unknown> = {}) => ({
  candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0, ...extra }],
  usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 30, thoughtsTokenCount: 12, cachedContentTokenCount: 40, totalTokenCount: 142 },
  modelVersion: "gemini-3-flash-preview",
  responseId: "resp-9",
});

describe("gemini decodeResult", () => {
  test("thoughts, text, calls with their signatures, usage", () => {
    const result = geminiUpstream.decodeResult(
      answer([
        { text: "Thinking ", thought: true },
        { text: "hard.", thought: true },
        { text: "Checking" },
        { text: "." },
        { functionCall: { id: "fc-1", name: "get_weather", args: { city: "Paris" } }, thoughtSignature: "sig-1" },
        { functionCall: { id: "fc-2", name: "get_time", args: {} } },
      ]),
    );
    expect(result).toStrictEqual({
      id: "resp-9",
      model: "gemini-3-flash-preview",
      content: [
        { type: "reasoning", text: "Thinking hard.", origin: "gemini" },
        { type: "text", text: "Checking." },
        { type: "reasoning", text: "", encrypted: "sig-1", id: "fc-1", origin: "gemini" },
        { type: "tool_call", id: "fc-1", name: "get_weather", arguments: '{"city":"Paris"}' },
        { type: "tool_call", id: "fc-2", name: "get_time", arguments: "{}" },
      ],
      finishReason: "tool_calls",
      nativeFinishReason: "STOP",
      usage: { inputTokens: 100, outputTokens: 42, cachedTokens: 40, cacheWriteTokens: 0, reasoningTokens: 12 },
    });
  });

  test("a call without an id gets one, and its signature names it", () => {
    const result = geminiUpstream.decodeResult(answer([{ functionCall: { name: "f", args: { a: [1] } }, thoughtSignature: "s" }]));
    const [signature, call] = result.content as any[];
    expect(call.id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(signature).toStrictEqual({ type: "reasoning", text: "", encrypted: "s", id: call.id, origin: "gemini" });
    expect(call.arguments).toBe('{"a":[1]}');
  });

  test("a signature on a text part, and on an empty one, stands after it", () => {
    const result = geminiUpstream.decodeResult(
      answer([
        { text: "Hi", thoughtSignature: "t1" },
        { text: "", thoughtSignature: "t2" },
      ]),
    );
    expect(result.content).toStrictEqual([
      { type: "text", text: "Hi" },
      { type: "reasoning", text: "", encrypted: "t1", origin: "gemini" },
      { type: "reasoning", text: "", encrypted: "t2", origin: "gemini" },
    ]);
    expect(result.finishReason).toBe("stop");
  });

  test("finish reasons", () => {
    const reasons = [
      "STOP",
      "MAX_TOKENS",
      "SAFETY",
      "RECITATION",
      "PROHIBITED_CONTENT",
      "BLOCKLIST",
      "SPII",
      "MALFORMED_FUNCTION_CALL",
      "OTHER",
      "FINISH_REASON_UNSPECIFIED",
    ];
    expect(reasons.map((finishReason) => geminiUpstream.decodeResult(answer([{ text: "x" }], { finishReason })).finishReason)).toEqual([
      "stop",
      "length",
      "content_filter",
      "content_filter",
      "content_filter",
      "content_filter",
      "content_filter",
      "error",
      "stop",
      "stop",
    ]);
  });

  test("a blocked prompt has no candidate: an empty, filtered answer", () => {
    const result = geminiUpstream.decodeResult({
      promptFeedback: { blockReason: "PROHIBITED_CONTENT" },
      usageMetadata: { promptTokenCount: 9, totalTokenCount: 9 },
    });
    expect([result.content, result.finishReason, result.nativeFinishReason, result.usage.inputTokens]).toEqual([[], "content_filter", "PROHIBITED_CONTENT", 9]);
  });

  test("bodies that are not answers", () => {
    expect(() => geminiUpstream.decodeResult("nope")).toThrow(UpstreamFormatError);
    expect(() => geminiUpstream.decodeResult({ usageMetadata: {} })).toThrow(UpstreamFormatError);
  });

  test("error messages, in both of Google's shapes", () => {
    const body = {
      error: {
        code: 400,
        message: "API key not valid. Please pass a valid API key.",
        status: "INVALID_ARGUMENT",
        details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID" }],
      },
    };
    expect(geminiUpstream.errorMessage(body)).toBe("API key not valid. Please pass a valid API key.");
    expect(geminiUpstream.errorMessage([body])).toBe("API key not valid. Please pass a valid API key.");
    expect(geminiUpstream.errorMessage({ message: "x" })).toBeUndefined();
  });
});
