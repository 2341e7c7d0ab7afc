import { describe, expect, test } from "bun:test";
import { openaiChatInbound, openaiChatUpstream } from "../../../src/formats/openai-chat";
import { decodeChatResult } from "../../../src/formats/openai-chat/decode-result";
import { rewriteChatResult } from "../../../src/formats/openai-chat/passthrough";
import { parseSse } from "../../support/sse";
import { CTX, drive, passthroughWriter, SETTLEMENT, wholeStream } from "../passthrough-drive";
import { AZURE_SAFE, azureAsyncFilterChunk, azureStream } from "./azure-events";

const USAGE_JSON = {
  prompt_tokens: 10,
  completion_tokens: 4,
  total_tokens: 14,
  cost: 0.000123,
  is_byok: false,
  cost_details: { upstream_inference_cost: null, upstream_inference_prompt_cost: 0.00002, upstream_inference_completions_cost: 0.000103 },
  prompt_tokens_details: { cached_tokens: 3, cache_write_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 0 },
};

describe("chat passthrough: JSON", () => {
  const raw = {
    id: "chatcmpl-up",
    object: "chat.completion",
    created: 1,
    model: "up-model",
    x_top: { kept: 1 },
    choices: [{ index: 0, message: { role: "assistant", content: "Hi", annotations: [{ type: "url_citation" }] }, logprobs: null, finish_reason: "stop" }],
    usage: { prompt_tokens: 10, completion_tokens: 4, prompt_tokens_details: { cached_tokens: 3 }, x_upstream_usage: 1 },
  };

  test("the upstream's body under the gateway's id, model, finish reasons, charged usage and metadata", () => {
    const body = rewriteChatResult(raw, decodeChatResult(raw), CTX, SETTLEMENT);
    expect(body).toEqual({
      id: "gen-1-abc",
      object: "chat.completion",
      created: 1,
      model: "t/model",
      x_top: { kept: 1 },
      // the upstream left it out: OpenRouter's ChatResult requires the key
      system_fingerprint: null,
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: "Hi", annotations: [{ type: "url_citation" }] },
          logprobs: null,
          finish_reason: "stop",
          native_finish_reason: "stop",
        },
      ],
      usage: USAGE_JSON,
      service_metadata: SETTLEMENT.serviceMetadata,
    });
  });

  test("reasoning in another spelling also goes out as reasoning and reasoning_details; the upstream's own details stay as sent", () => {
    const withContent = { ...raw, choices: [{ index: 0, message: { role: "assistant", content: "A", reasoning_content: "think" }, finish_reason: "stop" }] };
    const message = (rewriteChatResult(withContent, decodeChatResult(withContent), CTX, SETTLEMENT).choices as any)[0].message;
    expect(message).toEqual({
      role: "assistant",
      content: "A",
      reasoning_content: "think",
      reasoning: "think",
      reasoning_details: [{ type: "reasoning.text", text: "think", index: 0, format: "unknown" }],
    });

    const details = [{ type: "reasoning.text", text: "t", index: 0, format: "anthropic-claude-v1", signature: "s", x: 1 }];
    const withDetails = {
      ...raw,
      choices: [{ index: 0, message: { role: "assistant", content: "A", reasoning: "t", reasoning_details: details }, finish_reason: "stop" }],
    };
    const kept = (rewriteChatResult(withDetails, decodeChatResult(withDetails), CTX, SETTLEMENT).choices as any)[0].message;
    expect(kept.reasoning_details).toBe(details);
  });

  test("a tool call the upstream sent without an id gets the decoder's; other choices pass as they came", () => {
    const calls = {
      ...raw,
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: null, tool_calls: [{ type: "function", function: { name: "f", arguments: "{}" } }] },
          finish_reason: "tool_calls",
        },
        { index: 1, message: { content: "other" } },
      ],
    };
    const result = decodeChatResult(calls);
    const body = rewriteChatResult(calls, result, CTX, SETTLEMENT) as any;
    const id = (result.content[0] as { id: string }).id;
    expect(id).toMatch(/^call_/);
    expect(body.choices[0].message.tool_calls).toEqual([{ id, type: "function", function: { name: "f", arguments: "{}" } }]);
    expect(body.choices[0].finish_reason).toBe("tool_calls");
    expect(body.choices[1]).toEqual({ index: 1, message: { content: "other" } });
  });
});

const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({
  data: JSON.stringify({ id: "chatcmpl-up", object: "chat.completion.chunk", created: 1, model: "up-model", x_chunk: 1, choices, usage: null, ...extra }),
});
const delta = (d: Record<string, unknown>, finish: string | null = null) => chunk([{ index: 0, delta: d, logprobs: null, finish_reason: finish }]);
const usageChunk = chunk([], { usage: { prompt_tokens: 10, completion_tokens: 4, prompt_tokens_details: { cached_tokens: 3 } } });
const DONE = { data: "[DONE]" };
const lines = (sse: string) => parseSse(sse, "data-only").map((e) => e.data);

describe("chat passthrough: stream", () => {
  test("a content chunk goes out byte for byte, but for the gateway's id and model and a null usage", () => {
    const writer = passthroughWriter(openaiChatInbound);
    const { written } = drive(openaiChatUpstream, writer, [delta({ role: "assistant", content: "" }), delta({ content: "Hel" }), delta({ content: "lo" })]);
    // a null usage is left out: OpenRouter's clients reject it
    const expected = (d: Record<string, unknown>) =>
      delta(d).data.replace('"id":"chatcmpl-up"', '"id":"gen-1-abc"').replace('"model":"up-model"', '"model":"t/model"').replace(',"usage":null', "");
    expect(lines(written)).toEqual([expected({ role: "assistant", content: "" }), expected({ content: "Hel" }), expected({ content: "lo" })]);
  });

  test("another key order is rewritten from the parsed chunk; a first delta without a role gets one; null usage and fingerprint are left out", () => {
    const writer = passthroughWriter(openaiChatInbound);
    const { written } = drive(openaiChatUpstream, writer, [
      { data: JSON.stringify({ model: "up-model", id: "u", choices: [{ index: 0, delta: { content: "a" } }], x: [1], system_fingerprint: null, usage: null }) },
      { data: JSON.stringify({ model: "up-model", id: "u", choices: [], system_fingerprint: "fp_1", usage: null }) },
    ]);
    expect(lines(written).map((l) => JSON.parse(l))).toEqual([
      { model: "t/model", id: "gen-1-abc", choices: [{ index: 0, delta: { role: "assistant", content: "a" } }], x: [1] },
      { model: "t/model", id: "gen-1-abc", choices: [], system_fingerprint: "fp_1" },
    ]);
  });

  test("a compact chunk whose null usage occurs twice (once nested) is serialised from its parsed form", () => {
    const writer = passthroughWriter(openaiChatInbound);
    const nested = delta({ content: "x", meta: { a: 1, usage: null } });
    const { written } = drive(openaiChatUpstream, writer, [delta({ role: "assistant", content: "" }), nested]);
    expect(JSON.parse(lines(written)[1]!)).toEqual({
      id: "gen-1-abc",
      object: "chat.completion.chunk",
      created: 1,
      model: "t/model",
      x_chunk: 1,
      choices: [{ index: 0, delta: { content: "x", meta: { a: 1, usage: null } }, logprobs: null, finish_reason: null }],
    });
  });

  test("reasoning_content also goes out as reasoning and reasoning_details, one detail index per block", () => {
    const writer = passthroughWriter(openaiChatInbound);
    const { written } = drive(openaiChatUpstream, writer, [
      delta({ role: "assistant", content: "" }),
      delta({ reasoning_content: "Let " }),
      delta({ reasoning_content: "me" }),
      delta({ content: "A" }),
    ]);
    const deltas = lines(written).map((l) => JSON.parse(l).choices[0].delta);
    expect(deltas.slice(1, 3)).toEqual([
      { reasoning_content: "Let ", reasoning: "Let ", reasoning_details: [{ type: "reasoning.text", text: "Let ", index: 0, format: "unknown" }] },
      { reasoning_content: "me", reasoning: "me", reasoning_details: [{ type: "reasoning.text", text: "me", index: 0, format: "unknown" }] },
    ]);
    expect(deltas[3]).toEqual({ content: "A" });
  });

  test("a tool call opened without an id gets the decoder's, and its type", () => {
    const writer = passthroughWriter(openaiChatInbound);
    const { written } = drive(openaiChatUpstream, writer, [
      delta({ role: "assistant" }),
      delta({ tool_calls: [{ index: 0, function: { name: "f", arguments: "" } }] }),
      delta({ tool_calls: [{ index: 0, function: { arguments: "{}" } }] }),
    ]);
    const calls = lines(written)
      .slice(1)
      .map((l) => JSON.parse(l).choices[0].delta.tool_calls[0]);
    expect(calls[0]).toEqual({ index: 0, function: { name: "f", arguments: "" }, id: expect.stringMatching(/^call_/), type: "function" });
    expect(calls[1]).toEqual({ index: 0, function: { arguments: "{}" } });
  });

  test("the finish chunk, the usage chunk and [DONE] are held back, then written with the charged usage", () => {
    const writer = passthroughWriter(openaiChatInbound);
    const { written, end } = drive(openaiChatUpstream, writer, [delta({ role: "assistant", content: "x" }), delta({}, "stop"), usageChunk, DONE]);
    expect(lines(written)).toHaveLength(1);
    expect(end?.type).toBe("finish");
    const last = lines(writer.finish(end as any, SETTLEMENT));
    expect(last.at(-1)).toBe("[DONE]");
    const [finish, usage] = last.slice(0, -1).map((l) => JSON.parse(l));
    expect(finish).toEqual({
      id: "gen-1-abc",
      object: "chat.completion.chunk",
      created: 1,
      model: "t/model",
      x_chunk: 1,
      choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: "stop", native_finish_reason: "stop" }],
    });
    expect(usage).toEqual({
      id: "gen-1-abc",
      object: "chat.completion.chunk",
      created: 1,
      model: "t/model",
      x_chunk: 1,
      choices: [],
      usage: USAGE_JSON,
      service_metadata: SETTLEMENT.serviceMetadata,
    });
    expect(writer.finish(end as any, SETTLEMENT)).toBe("");
  });

  test("an upstream that sent no usage chunk: finish adds the charged one", () => {
    const sse = wholeStream(openaiChatUpstream, passthroughWriter(openaiChatInbound), [delta({ role: "assistant", content: "x" }), delta({}, "length"), DONE]);
    const out = lines(sse);
    expect(JSON.parse(out[1]!).choices[0]).toMatchObject({ finish_reason: "length", native_finish_reason: "length" });
    expect(JSON.parse(out[2]!)).toMatchObject({ id: "gen-1-abc", model: "t/model", choices: [], usage: { cost: 0.000123 } });
    expect(out[3]).toBe("[DONE]");
  });

  test("an upstream error chunk ends the stream as the encoder writes it", () => {
    const events = [delta({ role: "assistant", content: "x" }), { data: JSON.stringify({ error: { message: "boom", code: 503 } }) }];
    const { end } = drive(openaiChatUpstream, passthroughWriter(openaiChatInbound), events);
    const writer = passthroughWriter(openaiChatInbound);
    const sse = wholeStream(openaiChatUpstream, writer, events);
    const encoded = openaiChatInbound.createStreamEncoder(CTX).encode(end as any);
    expect(sse.endsWith(encoded)).toBe(true);
    expect(JSON.parse(lines(encoded)[0]!)).toMatchObject({ error: { code: 503, message: "boom" }, choices: [{ finish_reason: "error" }] });
    expect(writer.error({ type: "error", status: 503, message: "again" })).toBe("");
  });
});

describe("chat passthrough: Azure OpenAI's stream", () => {
  test("the opening chunk of prompt filter results alone is left out: the client's stream opens with Azure's role chunk; filter results stay on every choice", () => {
    const out = lines(wholeStream(openaiChatUpstream, passthroughWriter(openaiChatInbound), azureStream("stop"))).map((l) =>
      l === "[DONE]" ? l : JSON.parse(l),
    );
    expect(out[0]).toEqual({
      choices: [{ content_filter_results: {}, delta: { content: "", refusal: null, role: "assistant" }, finish_reason: null, index: 0, logprobs: null }],
      created: 1748977994,
      id: "gen-1-abc",
      model: "t/model",
      object: "chat.completion.chunk",
      system_fingerprint: "fp_ee1d74bde0",
    });
    expect(out[1]).toMatchObject({ id: "gen-1-abc", model: "t/model", choices: [{ content_filter_results: AZURE_SAFE, delta: { content: "Checking." } }] });
    expect(JSON.stringify(out)).not.toContain("prompt_filter_results");
    expect(out.at(-1)).toBe("[DONE]");
    expect(out.at(-2)).toMatchObject({ id: "gen-1-abc", choices: [], usage: { prompt_tokens: 20, completion_tokens: 9, cost: 0.000123 } });
  });

  test("an asynchronous filter's verdict chunk (empty id, object, created) goes out in the gateway's envelope", () => {
    const [opening, role, text, ...rest] = azureStream("stop");
    const stream = [opening!, role!, text!, { data: JSON.stringify(azureAsyncFilterChunk) }, ...rest];
    const out = lines(wholeStream(openaiChatUpstream, passthroughWriter(openaiChatInbound), stream)).map((l) => (l === "[DONE]" ? l : JSON.parse(l)));
    expect(out[2]).toEqual({ ...azureAsyncFilterChunk, id: "gen-1-abc", object: "chat.completion.chunk", created: CTX.created, model: "t/model" });
  });
});
