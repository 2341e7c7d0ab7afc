import { afterAll, beforeAll, describe, expect, setSystemTime, test } from "bun:test";
import { openaiResponsesInbound } from "../../../src/formats/openai-responses";
import { ctx, ctxWithoutSummary, encodedUsage, expectedOutput, irResult, NOW, settlement } from "./fixtures";

beforeAll(() => setSystemTime(NOW));
afterAll(() => setSystemTime());

/** The result read as plain JSON: the fixtures are untyped literals and the metadata a stand-in. */
const encodeResult = (...args: Parameters<typeof openaiResponsesInbound.encodeResult>): Record<string, any> => openaiResponsesInbound.encodeResult(...args);

describe("encodeResult", () => {
  test("a full OpenResponsesResult echoing the request", () => {
    expect(encodeResult(irResult, ctx, settlement)).toEqual({
      id: "gen-1",
      object: "response",
      created_at: 1_700_000_000,
      status: "completed",
      background: false,
      completed_at: 1_700_000_100,
      error: null,
      incomplete_details: null,
      instructions: "Be brief.",
      max_output_tokens: 500,
      max_tool_calls: null,
      model: "openai/gpt-5",
      output: expectedOutput,
      parallel_tool_calls: true,
      previous_response_id: null,
      prompt_cache_key: null,
      reasoning: { effort: "low", summary: "auto" },
      safety_identifier: null,
      service_tier: "auto",
      store: true,
      temperature: 0.2,
      text: { format: { type: "text" } },
      tool_choice: "auto",
      tools: [
        {
          type: "function",
          name: "get_weather",
          description: null,
          parameters: { type: "object", properties: { city: { type: "string" } } },
          strict: null,
        },
      ],
      top_logprobs: 0,
      top_p: null,
      presence_penalty: null,
      frequency_penalty: null,
      truncation: "disabled",
      usage: encodedUsage,
      user: null,
      metadata: { team: "a" },
      output_text: "Checking both.",
    });
  });

  test("length is incomplete with max_output_tokens", () => {
    const encoded = encodeResult({ ...irResult, content: [{ type: "text", text: "Tru" }], finishReason: "length" }, ctx, settlement);
    expect(encoded.status).toBe("incomplete");
    expect(encoded.incomplete_details).toEqual({ reason: "max_output_tokens" });
    expect(encoded.output).toEqual([
      { type: "message", id: "msg_gen-1_0", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Tru", annotations: [] }] },
    ]);
  });

  test("content_filter is incomplete with content_filter; service metadata is attached", () => {
    const encoded = encodeResult({ ...irResult, content: [{ type: "refusal", refusal: "No." }], finishReason: "content_filter" }, ctx, {
      ...settlement,
      serviceMetadata: { provider: "openai" },
    });
    expect(encoded.status).toBe("incomplete");
    expect(encoded.incomplete_details).toEqual({ reason: "content_filter" });
    expect(encoded.output).toEqual([
      { type: "message", id: "msg_gen-1_0", role: "assistant", status: "completed", content: [{ type: "refusal", refusal: "No." }] },
    ]);
    expect(encoded.output_text).toBe("");
    expect(encoded.service_metadata).toEqual({ provider: "openai" });
  });

  test("reasoning from another upstream: raw content, packed signature, derived id", () => {
    const encoded = encodeResult(
      {
        ...irResult,
        content: [
          { type: "text", text: "a" },
          { type: "reasoning", text: "thinking", signature: "SIG", origin: "anthropic-messages" },
          { type: "text", text: "b" },
        ],
        finishReason: "stop",
      },
      ctxWithoutSummary,
      settlement,
    );
    const output = encoded.output as Array<Record<string, unknown>>;
    expect(output[1]).toEqual({
      type: "reasoning",
      id: "rs_gen-1_1",
      summary: [],
      content: [{ type: "reasoning_text", text: "thinking" }],
      encrypted_content: expect.stringMatching(/^gwrs1\./),
    });
    expect(output.map((item) => item.id)).toEqual(["msg_gen-1_0", "rs_gen-1_1", "msg_gen-1_2"]);
    expect(encoded.output_text).toBe("ab");
    // The packed payload decodes back to the same reasoning part.
    const replay = openaiResponsesInbound.decodeRequest({ input: [output[1] as never] });
    expect(replay.messages).toEqual([
      { role: "assistant", content: [{ type: "reasoning", text: "thinking", signature: "SIG", origin: "anthropic-messages" }] },
    ]);
  });

  test("echoes tool choice, format and other request fields", () => {
    const encoded = encodeResult(
      irResult,
      {
        ...ctx,
        request: {
          messages: [],
          stream: false,
          sentParameters: [],
          toolChoice: { type: "tool", name: "get_weather" },
          responseFormat: { type: "json_schema", name: "o", schema: { type: "object" } },
          parallelToolCalls: false,
          topP: 0.5,
          user: "u",
          serviceTier: "flex",
          promptCacheKey: "k",
          store: false,
          previousResponseId: "gen-0",
        },
      },
      settlement,
    );
    expect(encoded).toMatchObject({
      instructions: null,
      tool_choice: { type: "function", name: "get_weather" },
      text: { format: { type: "json_schema", name: "o", schema: { type: "object" } } },
      parallel_tool_calls: false,
      top_p: 0.5,
      user: "u",
      service_tier: "flex",
      prompt_cache_key: "k",
      store: false,
      previous_response_id: "gen-0",
      reasoning: null,
      metadata: null,
      tools: [],
    });
  });
});
