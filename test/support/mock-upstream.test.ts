import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import Anthropic from "@anthropic-ai/sdk";
import fc from "fast-check";
import OpenAI from "openai";
import type { SseEvent } from "../../src/ir/codec";
import { renderAnthropicEvents } from "./mock-upstream/render-anthropic.ts";
import { renderChatEvents } from "./mock-upstream/render-chat.ts";
import { renderResponsesEvents } from "./mock-upstream/render-responses.ts";
import { DEFAULT_TEXT, type MockTurn, type MockUpstream, startMockUpstream } from "./mock-upstream.ts";
import { parseSse } from "./sse.ts";

let up: MockUpstream;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  up = await startMockUpstream();
  openai = new OpenAI({ apiKey: "sk-test", baseURL: up.url, maxRetries: 0 });
  // The Anthropic SDK appends /v1/messages itself.
  anthropic = new Anthropic({ apiKey: "sk-ant-test", baseURL: up.url.replace(/\/v1$/, ""), maxRetries: 0 });
});
afterEach(() => up.reset());
afterAll(() => up.stop());

const toolTurn: MockTurn = {
  id: "up-1",
  text: ["Let me ", "check."],
  toolCalls: [
    { id: "call_a", name: "get_weather", arguments: ['{"ci', 'ty":"Par', 'is"}'] },
    { id: "call_b", name: "get_time", arguments: '{"tz":"CET"}' },
  ],
  usage: { input: 100, output: 20, cached: 30, cacheWrite: 10, reasoning: 7 },
};

async function rawSse(path: string, body: unknown): Promise<SseEvent[]> {
  const res = await fetch(up.url + path, { method: "POST", body: JSON.stringify(body) });
  return parseSse(await res.text());
}

describe("chat completions", () => {
  test("JSON parsed by the openai SDK", async () => {
    up.enqueue(toolTurn);
    const r = await openai.chat.completions.create({ model: "m1", messages: [{ role: "user", content: "hi" }] });
    expect(r.id).toBe("up-1");
    expect(r.model).toBe("m1");
    expect(r.choices[0]!.message.content).toBe("Let me check.");
    expect(r.choices[0]!.finish_reason).toBe("tool_calls");
    expect(r.choices[0]!.message.tool_calls!.map((c) => (c.type === "function" ? [c.id, c.function.name, c.function.arguments] : []))).toEqual([
      ["call_a", "get_weather", '{"city":"Paris"}'],
      ["call_b", "get_time", '{"tz":"CET"}'],
    ]);
    expect(r.usage).toEqual({
      prompt_tokens: 100,
      completion_tokens: 20,
      total_tokens: 120,
      prompt_tokens_details: { cached_tokens: 30, audio_tokens: 0, cache_write_tokens: 10 } as never,
      completion_tokens_details: { reasoning_tokens: 7, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    });
  });

  test("SSE with include_usage: exact chunks, usage chunk with empty choices", async () => {
    up.enqueue(toolTurn);
    const stream = await openai.chat.completions.create({
      model: "m1",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const c of stream) chunks.push(c);
    expect(chunks.flatMap((c) => (c.choices[0]?.delta.content ? [c.choices[0].delta.content] : []))).toEqual(["Let me ", "check."]);
    expect(chunks[1]!.usage).toBeNull();
    const first = chunks.find((c) => c.choices[0]?.delta.tool_calls)!.choices[0]!.delta.tool_calls![0]!;
    expect(first).toEqual({ index: 0, id: "call_a", type: "function", function: { name: "get_weather", arguments: "" } });
    const args = ["", ""];
    for (const c of chunks) for (const t of c.choices[0]?.delta.tool_calls ?? []) args[t.index] += t.function?.arguments ?? "";
    expect(args).toEqual(['{"city":"Paris"}', '{"tz":"CET"}']);
    expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe("tool_calls");
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage!.prompt_tokens).toBe(100);
    expect(last.usage!.prompt_tokens_details!.cached_tokens).toBe(30);
  });

  test("SSE without include_usage has no usage chunk; the SDK stream helper accumulates it", async () => {
    up.enqueue(toolTurn);
    const final = await openai.chat.completions
      .stream({
        model: "m1",
        messages: [{ role: "user", content: "hi" }],
        tools: [
          { type: "function", function: { name: "get_weather" } },
          { type: "function", function: { name: "get_time" } },
        ],
      })
      .finalChatCompletion();
    expect(final.choices[0]!.message.content).toBe("Let me check.");
    expect(final.choices[0]!.message.tool_calls!.map((c) => (c.type === "function" ? c.function.arguments : ""))).toEqual(['{"city":"Paris"}', '{"tz":"CET"}']);
    expect(final.usage).toBeUndefined();
    const events = await rawSse("/chat/completions", { model: "m", stream: true });
    expect(events.at(-1)!.data).toBe("[DONE]");
    expect(events.some((e) => e.data.includes('"usage"'))).toBe(false);
  });

  test("reasoning in reasoning_content deltas, or the reasoning field", async () => {
    up.enqueue({ reasoning: { text: ["th", "ink"] }, text: "ok" }, { reasoning: { text: "r", chatField: "reasoning" }, text: "ok" });
    const a = (await rawSse("/chat/completions", { model: "m", stream: true })).slice(0, -1).map((e) => JSON.parse(e.data).choices[0].delta);
    expect(a.slice(1, 4)).toEqual([{ reasoning_content: "th" }, { reasoning_content: "ink" }, { content: "ok" }]);
    const b: any = await (await fetch(`${up.url}/chat/completions`, { method: "POST", body: "{}" })).json();
    expect(b.choices[0].message.reasoning).toBe("r");
  });
});

describe("responses", () => {
  const turn: MockTurn = {
    id: "resp_1",
    reasoning: { text: ["Think", "ing"], encrypted: "enc-blob" },
    text: ["Hi ", "there"],
    toolCalls: [{ id: "call_1", name: "lookup", arguments: ['{"q":', '"x"}'] }],
    usage: { input: 50, output: 9, cached: 20, reasoning: 4 },
  };

  test("JSON parsed by the openai SDK", async () => {
    up.enqueue(turn);
    const r = await openai.responses.create({ model: "m2", input: "hi" });
    expect(r.id).toBe("resp_1");
    expect(r.status).toBe("completed");
    expect(r.output_text).toBe("Hi there");
    expect(r.output[0]).toEqual({ id: "rs_mock1", type: "reasoning", summary: [{ type: "summary_text", text: "Thinking" }], encrypted_content: "enc-blob" });
    expect(r.output[2]).toEqual({ id: "fc_mock1_0", type: "function_call", call_id: "call_1", name: "lookup", status: "completed", arguments: '{"q":"x"}' });
    expect(r.usage).toEqual({
      input_tokens: 50,
      input_tokens_details: { cached_tokens: 20, cache_write_tokens: 0 },
      output_tokens: 9,
      output_tokens_details: { reasoning_tokens: 4 },
      total_tokens: 59,
    });
  });

  test("SSE grammar: contiguous sequence numbers, event lines, final response equals JSON", async () => {
    up.enqueue(turn, turn, turn);
    const stream = await openai.responses.create({ model: "m2", input: "hi", stream: true });
    const events = [];
    for await (const e of stream) events.push(e);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    expect(events.map((e) => e.type)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.reasoning_summary_part.added",
      "response.reasoning_summary_text.delta",
      "response.reasoning_summary_text.delta",
      "response.reasoning_summary_text.done",
      "response.reasoning_summary_part.done",
      "response.output_item.done",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.output_item.added",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.completed",
    ]);
    const final = await openai.responses.stream({ model: "m2", input: "hi" }).finalResponse();
    expect(final.output_text).toBe("Hi there");
    expect(final.usage!.input_tokens_details.cached_tokens).toBe(20);
    const json: any = await (await fetch(`${up.url}/responses`, { method: "POST", body: '{"model":"m2"}' })).json();
    const last = events.at(-1) as { response: { output: Array<{ id: string }> } };
    // Item ids embed the request number; everything else must match the JSON rendering.
    const noIds = (items: Array<{ id: string }>) => items.map(({ id: _, ...rest }) => rest);
    expect(noIds(last.response.output)).toEqual(noIds(json.output));
  });

  test("finish length ends with response.incomplete", async () => {
    up.enqueue({ text: "cut", finish: "length" });
    const events = await rawSse("/responses", { model: "m", stream: true });
    const last = events.at(-1)!;
    expect(last.event).toBe("response.incomplete");
    expect(JSON.parse(last.data).response.incomplete_details).toEqual({ reason: "max_output_tokens" });
  });
});

describe("anthropic messages", () => {
  const turn: MockTurn = {
    id: "msg_up",
    reasoning: { text: ["Hmm", " ok"], signature: "sig-1" },
    text: ["Hel", "lo"],
    toolCalls: [{ id: "toolu_1", name: "calc", arguments: ['{"a":', "1}"] }],
    usage: { input: 100, output: 12, cached: 30, cacheWrite: 10 },
  };
  const params = { model: "claude-x", max_tokens: 100, messages: [{ role: "user" as const, content: "hi" }] };
  const expectedContent = [
    { type: "thinking", thinking: "Hmm ok", signature: "sig-1" },
    { type: "text", text: "Hello" },
    { type: "tool_use", id: "toolu_1", name: "calc", input: { a: 1 } },
  ];

  test("JSON parsed by the Anthropic SDK, input_tokens excluding cache", async () => {
    up.enqueue(turn);
    const m = await anthropic.messages.create(params);
    expect(m.id).toBe("msg_up");
    expect(m.content as unknown).toEqual(expectedContent);
    expect(m.stop_reason).toBe("tool_use");
    expect(m.usage).toMatchObject({ input_tokens: 60, cache_read_input_tokens: 30, cache_creation_input_tokens: 10, output_tokens: 12 });
    expect(m.usage.cache_creation).toEqual({ ephemeral_5m_input_tokens: 10, ephemeral_1h_input_tokens: 0 });
  });

  test("SSE: raw events and messages.stream().finalMessage()", async () => {
    up.enqueue(turn, turn);
    const stream = await anthropic.messages.create({ ...params, stream: true });
    const types = [];
    for await (const e of stream) types.push(e.type === "content_block_delta" ? e.delta.type : e.type);
    // The SDK drops ping events; the raw test below sees it.
    expect(types).toEqual([
      "message_start",
      "content_block_start",
      "thinking_delta",
      "thinking_delta",
      "signature_delta",
      "content_block_stop",
      "content_block_start",
      "text_delta",
      "text_delta",
      "content_block_stop",
      "content_block_start",
      "input_json_delta",
      "input_json_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    const final = await anthropic.messages.stream(params).finalMessage();
    expect(final.content as unknown).toEqual(expectedContent);
    expect(final.stop_reason).toBe("tool_use");
    expect(final.usage).toMatchObject({ input_tokens: 60, cache_read_input_tokens: 30, output_tokens: 12 });
  });

  test("each SSE event carries an event: line naming its type; stop_sequence is reported", async () => {
    up.enqueue({ text: "x", finish: "stop_sequence", stopSequence: "END" });
    const events = await rawSse("/messages", { model: "m", stream: true });
    for (const e of events) expect(e.event).toBe(JSON.parse(e.data).type);
    expect(events.slice(0, 3).map((e) => e.event)).toEqual(["message_start", "ping", "content_block_start"]);
    expect(JSON.parse(events.at(-2)!.data).delta).toEqual({ stop_reason: "stop_sequence", stop_sequence: "END" });
  });
});

test("embeddings: base64 (SDK default) and float", async () => {
  up.enqueue({
    embedding: [
      [0.5, -1.25],
      [2, 3],
    ],
    usage: { input: 4, output: 0 },
  });
  const r = await openai.embeddings.create({ model: "e", input: ["a", "b"] });
  expect(r.data.map((d) => d.embedding)).toEqual([
    [0.5, -1.25],
    [2, 3],
  ]);
  expect(r.usage).toEqual({ prompt_tokens: 4, total_tokens: 4 });
  expect(up.requests[0]!.body.encoding_format).toBe("base64");
  const f = await openai.embeddings.create({ model: "e", input: "a", encoding_format: "float" });
  expect(f.data[0]!.embedding).toEqual([0.5, 0.25, -0.125]);
});

describe("failures", () => {
  test("error before the first byte in each provider's shape, with headers", async () => {
    up.enqueue({ status: 429, headers: { "retry-after": "7" } }, { status: 529 }, { status: 500, errorBody: { custom: true } });
    const e1 = await openai.chat.completions.create({ model: "m", messages: [] }).catch((e) => e);
    expect(e1).toBeInstanceOf(OpenAI.RateLimitError);
    expect(e1.headers.get("retry-after")).toBe("7");
    expect(e1.error).toEqual({ message: "Rate limit reached for requests.", type: "requests", param: null, code: "rate_limit_exceeded" });
    const e2 = await anthropic.messages.create({ ...{ model: "m", max_tokens: 1, messages: [] } }).catch((e) => e);
    expect(e2.status).toBe(529);
    expect(e2.error).toEqual({ type: "error", error: { type: "overloaded_error", message: "mock overloaded_error" }, request_id: "req_mock2" });
    const r3 = await fetch(`${up.url}/responses`, { method: "POST", body: "{}" });
    expect([r3.status, await r3.json()]).toEqual([500, { custom: true }]);
  });

  test("failAfterEvents cuts the connection: SDK iteration and raw fetch both fail", async () => {
    up.enqueue({ text: ["a", "b", "c", "d"], failAfterEvents: 2 }, { text: ["a", "b"], failAfterEvents: 3 });
    const stream = await openai.chat.completions.create({ model: "m", messages: [], stream: true });
    const seen: string[] = [];
    const err = await (async () => {
      for await (const c of stream) seen.push(c.choices[0]?.delta.content ?? "");
    })().catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(seen).toEqual(["", "a"]);
    const res = await fetch(`${up.url}/messages`, { method: "POST", body: '{"stream":true}' });
    expect(res.status).toBe(200);
    const readErr = await res.text().catch((e) => e);
    expect(readErr).toBeInstanceOf(Error);
    expect((readErr as { code?: string }).code).toBe("ECONNRESET");
  });

  test("streamError sends the provider's in-stream error event", async () => {
    up.enqueue({ text: ["a", "b"], streamError: { afterEvents: 2, message: "boom" } });
    const stream = await anthropic.messages.create({ model: "m", max_tokens: 1, messages: [], stream: true });
    const err = await (async () => {
      for await (const _ of stream);
    })().catch((e) => e);
    expect(err.error).toEqual({ type: "error", error: { type: "overloaded_error", message: "boom" } });
  });

  test("resetBeforeResponse makes fetch fail with a connection error", async () => {
    up.enqueue({ resetBeforeResponse: true }, { resetBeforeResponse: true });
    const err = await fetch(`${up.url}/chat/completions`, { method: "POST", body: "{}" }).catch((e) => e);
    expect(err.code).toBe("ECONNRESET");
    const sdkErr = await openai.chat.completions.create({ model: "m", messages: [] }).catch((e) => e);
    expect(sdkErr).toBeInstanceOf(OpenAI.APIConnectionError);
  });

  test("invalidBody: 200 that no decoder accepts", async () => {
    up.enqueue({ invalidBody: true });
    const err = await openai.chat.completions.create({ model: "m", messages: [] }).catch((e) => e);
    expect(err).toBeInstanceOf(Error);
  });

  test("hang until the client aborts; the abort time is recorded", async () => {
    up.enqueue({ hang: true });
    const ac = new AbortController();
    const started = Date.now();
    setTimeout(() => ac.abort(), 50);
    const err = await fetch(`${up.url}/chat/completions`, { method: "POST", body: "{}", signal: ac.signal }).catch((e) => e);
    expect(err.name).toBe("AbortError");
    const [rec] = await up.waitForRequests(1);
    expect(rec!.abortedAt).toBeGreaterThanOrEqual(started + 40);
    expect(rec!.closedAt).toBeUndefined();
  });

  test("a client leaving mid-stream is recorded through the stream's cancel", async () => {
    up.enqueue({ text: Array.from({ length: 50 }, () => "x"), chunkDelayMs: 20 });
    const ac = new AbortController();
    const res = await fetch(`${up.url}/chat/completions`, { method: "POST", body: '{"stream":true}', signal: ac.signal });
    const reader = res.body!.getReader();
    await reader.read();
    ac.abort();
    const [rec] = await up.waitForRequests(1);
    expect(rec!.abortedAt).toBeNumber();
    expect(rec!.closedAt).toBeUndefined();
  });

  test("events are written one by one with chunkDelayMs pauses, not buffered", async () => {
    up.enqueue({ text: ["a", "b", "c"], chunkDelayMs: 100 });
    const t0 = Date.now();
    const res = await fetch(`${up.url}/chat/completions`, { method: "POST", body: '{"stream":true}' });
    const reader = res.body!.getReader();
    const first = await reader.read();
    const tFirst = Date.now() - t0;
    while (!(await reader.read()).done);
    const tAll = Date.now() - t0;
    expect(new TextDecoder().decode(first.value)).toContain('"role":"assistant"');
    // buffered, the first read would come with the last: at least 4 of the 5 gaps lie after it
    // (an absolute bound on tFirst failed on a machine that stalled 366 ms before the first byte)
    expect(tAll - tFirst).toBeGreaterThanOrEqual(400);
    expect(tAll).toBeGreaterThanOrEqual(400); // 5 gaps between 6 events
  });
});

describe("less common turn parts", () => {
  test("refusal in each format", async () => {
    up.setHandler(() => ({ refusal: "I can't help with that." }));
    const chat = await openai.chat.completions.create({ model: "m", messages: [] });
    expect([chat.choices[0]!.message.refusal, chat.choices[0]!.message.content]).toEqual(["I can't help with that.", null]);
    const resp = await openai.responses.create({ model: "m", input: "x" });
    expect(resp.output[0]).toMatchObject({ type: "message", content: [{ type: "refusal", refusal: "I can't help with that." }] });
    const msg = await anthropic.messages.create({ model: "m", max_tokens: 1, messages: [] });
    expect([msg.stop_reason, msg.content]).toEqual(["refusal", [{ type: "text", text: "I can't help with that." }]] as never);
  });

  test("raw reasoning_text (summary: false) and Anthropic redacted_thinking", async () => {
    up.setHandler(() => ({ reasoning: { text: ["a", "b"], summary: false, encrypted: "ENC" }, text: "t" }));
    const events = await rawSse("/responses", { stream: true });
    expect(events.filter((e) => e.event === "response.reasoning_text.delta").map((e) => JSON.parse(e.data).delta)).toEqual(["a", "b"]);
    const done = JSON.parse(events.at(-1)!.data).response.output[0];
    expect(done).toEqual({ id: "rs_mock1", type: "reasoning", summary: [], content: [{ type: "reasoning_text", text: "ab" }], encrypted_content: "ENC" });
    const msg = await anthropic.messages.create({ model: "m", max_tokens: 1, messages: [] });
    expect(msg.content.map((b) => b.type)).toEqual(["thinking", "redacted_thinking", "text"]);
  });

  test("streamError in the OpenAI formats", async () => {
    up.setHandler(() => ({ text: ["a", "b"], streamError: { afterEvents: 2, message: "boom" } }));
    const chat = await rawSse("/chat/completions", { stream: true });
    expect(chat.at(-1)!.data).toBe('{"error":{"message":"boom","type":"server_error","param":null,"code":null}}');
    const resp = await rawSse("/responses", { stream: true });
    expect(resp.length).toBe(3);
    expect(resp[2]!.event).toBe("response.failed");
    expect(JSON.parse(resp[2]!.data)).toMatchObject({ sequence_number: 2, response: { status: "failed", error: { code: "server_error", message: "boom" } } });
  });
});

describe("recording and handlers", () => {
  test("default handler, lower-cased headers, parsed body, closedAt", async () => {
    const r = await fetch(`${up.url}/chat/completions?x=1`, { method: "POST", headers: { "X-Custom": "V" }, body: '{"model":"m"}' });
    expect(((await r.json()) as any).choices[0].message.content).toBe(DEFAULT_TEXT);
    const rec = up.requests[0]!;
    expect([rec.path, rec.method, rec.headers["x-custom"], rec.body]).toEqual(["/v1/chat/completions?x=1", "POST", "V", { model: "m" }]);
    expect(rec.closedAt).toBeNumber();
    expect(rec.abortedAt).toBeUndefined();
  });

  test("queue first, then setHandler; reset restores the default", async () => {
    up.setHandler((req) => ({ text: `echo ${req.body.model}` }));
    up.enqueue({ text: "queued" });
    const ask = async () => (await openai.chat.completions.create({ model: "zz", messages: [] })).choices[0]!.message.content;
    expect([await ask(), await ask()]).toEqual(["queued", "echo zz"]);
    up.reset();
    expect(up.requests).toEqual([]);
    expect(await ask()).toBe(DEFAULT_TEXT);
  });
});

describe("streamed arguments survive any split (renderers, property)", () => {
  const ctx = { body: { stream: true }, model: "m", created: 0, seq: 1 };
  const splits = fc.string({ maxLength: 40 }).chain((s) =>
    fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, s.length - 1) }), { maxLength: s.length }).map((cuts) => {
      const points = [0, ...cuts.filter((c) => c < s.length).sort((a, b) => a - b), s.length];
      return { s, parts: points.slice(1).map((p, i) => s.slice(points[i], p)) };
    }),
  );
  test("chat, responses and anthropic reassemble exactly", () => {
    fc.assert(
      fc.property(splits, ({ s, parts }) => {
        const turn: MockTurn = { toolCalls: [{ id: "c", name: "f", arguments: parts }] };
        const chat = renderChatEvents(turn, ctx)
          .slice(0, -1)
          .map((e) => JSON.parse(e.data));
        const chatArgs = chat.flatMap((c) => c.choices[0]?.delta.tool_calls?.map((t: any) => t.function.arguments) ?? []).join("");
        const resp = renderResponsesEvents(turn, ctx).map((e) => JSON.parse(e.data));
        const respArgs = resp
          .filter((e) => e.type === "response.function_call_arguments.delta")
          .map((e) => e.delta)
          .join("");
        const anth = renderAnthropicEvents(turn, ctx).map((e) => JSON.parse(e.data));
        const anthArgs = anth
          .filter((e) => e.delta?.type === "input_json_delta")
          .map((e) => e.delta.partial_json)
          .join("");
        expect([chatArgs, respArgs, anthArgs]).toEqual([s, s, s]);
      }),
    );
  });
});
