import { describe, expect, test } from "bun:test";
import { bedrockConverseUpstream, streamEventOf } from "../../../src/formats/bedrock-converse";
import { type SseEvent, UpstreamFormatError } from "../../../src/ir/codec";
import type { IRStreamPart } from "../../../src/ir/types";
import { grammarViolations } from "../stream-grammar";

const decodeStream = (events: SseEvent[]): IRStreamPart[] => {
  const decoder = bedrockConverseUpstream.createStreamDecoder();
  return [...events.flatMap((e) => decoder.push(e)), ...decoder.end()];
};
const ev = (event: string, payload: unknown): SseEvent => ({ event, data: JSON.stringify(payload) });
const USAGE = { inputTokens: 60, outputTokens: 20, totalTokens: 120, cacheReadInputTokens: 30, cacheWriteInputTokens: 10 };
const IR_USAGE = { inputTokens: 100, outputTokens: 20, cachedTokens: 30, cacheWriteTokens: 10, reasoningTokens: 0 };

describe("Converse result decoding", () => {
  test("reasoning with its signature, redacted reasoning, text, tool use; prompt tokens include cache reads and writes", () => {
    const result = bedrockConverseUpstream.decodeResult({
      output: {
        message: {
          role: "assistant",
          content: [
            { reasoningContent: { reasoningText: { text: "Think.", signature: "sig-1" } } },
            { reasoningContent: { redactedContent: "cmVk" } },
            { text: "Checking." },
            { toolUse: { toolUseId: "tooluse_1", name: "get_weather", input: { city: "Paris" } } },
            { citationsContent: {} },
          ],
        },
      },
      stopReason: "tool_use",
      usage: USAGE,
      additionalModelResponseFields: { delta: { stop_sequence: null } },
    });
    expect(result).toEqual({
      id: "",
      model: "",
      content: [
        { type: "reasoning", text: "Think.", signature: "sig-1", origin: "bedrock" },
        { type: "reasoning", text: "", redacted: true, encrypted: "cmVk", origin: "bedrock" },
        { type: "text", text: "Checking." },
        { type: "tool_call", id: "tooluse_1", name: "get_weather", arguments: '{"city":"Paris"}' },
      ],
      finishReason: "tool_calls",
      stopSequence: null,
      nativeFinishReason: "tool_use",
      usage: IR_USAGE,
    });
  });

  test("every stop reason maps; the stop sequence Claude names is kept", () => {
    const finish = (stopReason: string) => bedrockConverseUpstream.decodeResult({ output: { message: { content: [] } }, stopReason }).finishReason;
    expect(
      [
        "end_turn",
        "stop_sequence",
        "max_tokens",
        "model_context_window_exceeded",
        "tool_use",
        "guardrail_intervened",
        "content_filtered",
        "malformed_model_output",
        "malformed_tool_use",
      ].map(finish),
    ).toEqual(["stop", "stop", "length", "length", "tool_calls", "content_filter", "content_filter", "error", "error"]);
    const named = bedrockConverseUpstream.decodeResult({
      output: { message: { content: [{ text: "one" }] } },
      stopReason: "stop_sequence",
      additionalModelResponseFields: { delta: { stop_sequence: "END" } },
    });
    expect([named.finishReason, named.stopSequence]).toEqual(["stop", "END"]);
  });

  test("a body that is no Converse answer is an upstream format error", () => {
    expect(() => bedrockConverseUpstream.decodeResult({ message: "oops" })).toThrow(UpstreamFormatError);
    expect(() => bedrockConverseUpstream.decodeResult("<html>")).toThrow(UpstreamFormatError);
  });

  test("error bodies: the message, without the canonical request a signature mismatch appends", () => {
    expect(bedrockConverseUpstream.errorMessage({ message: "Too many requests." })).toBe("Too many requests.");
    expect(bedrockConverseUpstream.errorMessage({ Message: "Bad model." })).toBe("Bad model.");
    expect(
      bedrockConverseUpstream.errorMessage({
        message: "The request signature we calculated does not match.\n\nThe Canonical String for this request should have been\n'x-amz-security-token:SECRET'",
      }),
    ).toBe("The request signature we calculated does not match.");
  });
});

describe("ConverseStream decoding", () => {
  const STREAM = [
    ev("messageStart", { role: "assistant" }),
    ev("contentBlockDelta", { contentBlockIndex: 0, delta: { reasoningContent: { text: "Let me " } }, p: "ab" }),
    ev("contentBlockDelta", { contentBlockIndex: 0, delta: { reasoningContent: { text: "" } } }),
    ev("contentBlockDelta", { contentBlockIndex: 0, delta: { reasoningContent: { signature: "sig-1" } } }),
    ev("contentBlockStop", { contentBlockIndex: 0 }),
    ev("contentBlockDelta", { contentBlockIndex: 1, delta: { text: "Hi" } }),
    ev("contentBlockStop", { contentBlockIndex: 1 }),
    ev("contentBlockStart", { contentBlockIndex: 2, start: { toolUse: { toolUseId: "t1", name: "f" } } }),
    ev("contentBlockDelta", { contentBlockIndex: 2, delta: { toolUse: { input: '{"a"' } } }),
    ev("contentBlockDelta", { contentBlockIndex: 2, delta: { toolUse: { input: ":1}" } } }),
    ev("contentBlockStop", { contentBlockIndex: 2 }),
    ev("contentBlockDelta", { contentBlockIndex: 3, delta: { reasoningContent: { redactedContent: "cmVk" } } }),
    ev("contentBlockStop", { contentBlockIndex: 3 }),
    ev("messageStop", { stopReason: "tool_use", additionalModelResponseFields: { delta: { stop_sequence: null } } }),
    ev("metadata", { usage: USAGE, metrics: { latencyMs: 5 } }),
  ];

  test("blocks open on their first delta (tool use on its start); the stream finishes on metadata, with the usage", () => {
    expect(decodeStream(STREAM)).toEqual([
      { type: "start", id: "", model: "" },
      { type: "block-start", index: 0, block: { type: "reasoning", origin: "bedrock" } },
      { type: "reasoning-delta", index: 0, text: "Let me " },
      { type: "reasoning-signature", index: 0, signature: "sig-1" },
      { type: "block-end", index: 0 },
      { type: "block-start", index: 1, block: { type: "text" } },
      { type: "text-delta", index: 1, text: "Hi" },
      { type: "block-end", index: 1 },
      { type: "block-start", index: 2, block: { type: "tool_call", id: "t1", name: "f" } },
      { type: "tool-args-delta", index: 2, delta: '{"a"' },
      { type: "tool-args-delta", index: 2, delta: ":1}" },
      { type: "block-end", index: 2 },
      { type: "block-start", index: 3, block: { type: "reasoning", origin: "bedrock", redacted: true, encrypted: "cmVk" } },
      { type: "block-end", index: 3 },
      { type: "finish", finishReason: "tool_calls", stopSequence: null, nativeFinishReason: "tool_use", usage: IR_USAGE },
    ]);
  });

  test("exception frames end the stream as errors with the status the exception has before a stream", () => {
    const failed = (type: string) =>
      decodeStream([
        STREAM[0]!,
        STREAM[5]!,
        streamEventOf(
          { ":message-type": { type: "string", value: "exception" }, ":exception-type": { type: "string", value: type } },
          JSON.stringify({ message: `${type}!` }),
        ),
      ]).slice(-2);
    expect(failed("throttlingException")).toEqual([
      { type: "block-end", index: 0 },
      { type: "error", status: 429, message: "throttlingException!", errorType: "throttlingException" },
    ]);
    expect(
      ["validationException", "serviceUnavailableException", "internalServerException", "modelStreamErrorException", "somethingNewException"].map(
        (t) => (failed(t)[1] as { status: number }).status,
      ),
    ).toEqual([400, 503, 500, 424, 502]);
    const protocolError = streamEventOf(
      {
        ":message-type": { type: "string", value: "error" },
        ":error-code": { type: "string", value: "InternalFailure" },
        ":error-message": { type: "string", value: "boom" },
      },
      "",
    );
    expect(decodeStream([protocolError])).toEqual([{ type: "error", status: 502, message: "boom", errorType: "InternalFailure" }]);
  });

  test("a stream that closes after messageStop finishes without usage; one that closes before it is an error", () => {
    expect(decodeStream(STREAM.slice(0, 14)).at(-1)).toMatchObject({ type: "finish", finishReason: "tool_calls", usage: { inputTokens: 0, outputTokens: 0 } });
    expect(decodeStream(STREAM.slice(0, 6)).slice(-2)).toEqual([
      { type: "block-end", index: 1 },
      { type: "error", status: 502, message: "Upstream stream ended before messageStop" },
    ]);
  });

  test("the grammar holds wherever the stream is cut or garbage arrives", () => {
    for (let at = 0; at <= STREAM.length; at++) {
      for (const tail of [[], [{ event: "contentBlockDelta", data: "{not json" }], [ev("exception:throttlingException", { message: "x" })]]) {
        expect({ at, violations: grammarViolations(decodeStream([...STREAM.slice(0, at), ...tail])) }).toEqual({ at, violations: [] });
      }
    }
  });
});
