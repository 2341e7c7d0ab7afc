import { describe, expect, test } from "bun:test";
import { openaiResponsesUpstream } from "../../../src/formats/openai-responses";
import { UpstreamFormatError } from "../../../src/ir/codec";

const decode = (body: unknown) => openaiResponsesUpstream.decodeResult(body);

const usage = {
  input_tokens: 100,
  input_tokens_details: { cached_tokens: 40 },
  output_tokens: 60,
  output_tokens_details: { reasoning_tokens: 25 },
  total_tokens: 160,
};

describe("decodeResult", () => {
  test("reasoning, text, refusal and function calls", () => {
    const result = decode({
      id: "resp_1",
      object: "response",
      model: "gpt-5-2025-08-07",
      status: "completed",
      output: [
        {
          type: "reasoning",
          id: "rs_1",
          summary: [
            { type: "summary_text", text: "a" },
            { type: "summary_text", text: "b" },
          ],
          encrypted_content: "ENC",
        },
        {
          type: "message",
          id: "msg_1",
          role: "assistant",
          status: "completed",
          content: [
            { type: "output_text", text: "Hello", annotations: [] },
            { type: "refusal", refusal: "No." },
          ],
        },
        { type: "function_call", id: "fc_1", call_id: "call_1", name: "get", arguments: '{"x":1}', status: "completed" },
        { type: "web_search_call", id: "ws_1", status: "completed" },
      ],
      usage,
    });
    expect(result).toEqual({
      id: "resp_1",
      model: "gpt-5-2025-08-07",
      content: [
        { type: "reasoning", text: "a\n\nb", summary: true, id: "rs_1", encrypted: "ENC", origin: "openai-responses" },
        { type: "text", text: "Hello" },
        { type: "refusal", refusal: "No." },
        { type: "tool_call", id: "call_1", name: "get", arguments: '{"x":1}' },
      ],
      finishReason: "tool_calls",
      nativeFinishReason: "completed",
      usage: { inputTokens: 100, outputTokens: 60, cachedTokens: 40, cacheWriteTokens: 0, reasoningTokens: 25 },
    });
  });

  test("incomplete for max_output_tokens is length", () => {
    const result = decode({
      id: "resp_2",
      model: "m",
      status: "incomplete",
      incomplete_details: { reason: "max_output_tokens" },
      output: [{ type: "message", id: "msg", role: "assistant", content: [{ type: "output_text", text: "Trunc" }] }],
      usage,
    });
    expect(result.finishReason).toBe("length");
    expect(result.nativeFinishReason).toBe("max_output_tokens");
    expect(result.content).toEqual([{ type: "text", text: "Trunc" }]);
  });

  test("incomplete for content_filter and a plain stop", () => {
    expect(decode({ id: "r", model: "m", status: "incomplete", incomplete_details: { reason: "content_filter" }, output: [] }).finishReason).toBe(
      "content_filter",
    );
    const plain = decode({ id: "r", model: "m", status: "completed", output: [] });
    expect(plain.finishReason).toBe("stop");
    expect(plain.usage).toEqual({ inputTokens: 0, outputTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });
  });

  test("raw reasoning text (no summary) keeps the text without the summary flag", () => {
    const result = decode({
      id: "r",
      model: "m",
      status: "completed",
      output: [{ type: "reasoning", id: "rs", summary: [], content: [{ type: "reasoning_text", text: "raw" }] }],
    });
    expect(result.content).toEqual([{ type: "reasoning", text: "raw", id: "rs", origin: "openai-responses" }]);
  });

  test("a body without output is an UpstreamFormatError", () => {
    expect(() => decode({ id: "r", status: "completed" })).toThrow(UpstreamFormatError);
    expect(() => decode("nope")).toThrow(UpstreamFormatError);
  });

  test("errorMessage reads error.message", () => {
    expect(openaiResponsesUpstream.errorMessage({ error: { message: "Invalid model", type: "invalid_request_error" } })).toBe("Invalid model");
    expect(openaiResponsesUpstream.errorMessage({ nothing: true })).toBeUndefined();
    expect(openaiResponsesUpstream.errorMessage(null)).toBeUndefined();
  });
});
