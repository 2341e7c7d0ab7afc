// Hits in each inbound format, JSON and stream, read by the official SDKs: a streamed hit is a
// whole stream of its format (chat chunks and [DONE]; Responses events to response.completed;
// Messages events to message_stop) with the events a live answer of the same text has.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import type { GatewayAndUpstream } from "../../support/gateway-and-upstream";
import { parseSse, sseJson } from "../../support/sse";
import { CACHE_ON, generation, startCacheGateway } from "./support";

let h: GatewayAndUpstream;
let openai: OpenAI;
let anthropic: Anthropic;
let n = 0;
const fresh = () => `format question ${++n} ${crypto.randomUUID()}`;

beforeAll(async () => {
  h = await startCacheGateway(CACHE_ON);
  openai = new OpenAI({ baseURL: `${h.gw.url}/api/v1`, apiKey: h.key, maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: `${h.gw.url}/api`, apiKey: h.key, maxRetries: 0 });
});
afterAll(() => h.close());
beforeEach(() => h.up.reset());

const raw = (path: string, json: unknown) => h.gw.api(`/api/v1${path}`, { method: "POST", key: h.key, json });
/** event names (or chunk kinds) of an SSE body, neighbouring repeats folded */
const shape = (text: string) =>
  parseSse(text)
    .map((e) => e.event ?? (e.data === "[DONE]" ? "[DONE]" : "chunk"))
    .filter((name, i, all) => name !== all[i - 1]);

describe("Chat Completions", () => {
  const ask = (q: string) => ({ model: "t/chat", messages: [{ role: "user" as const, content: q }] });

  test("a JSON answer kept, then streamed to the openai client: chunks, usage with cost 0, [DONE]", async () => {
    const q = fresh();
    h.up.enqueue({ text: "Hello there", usage: { input: 11, output: 2 } });
    await openai.chat.completions.create(ask(q));
    const stream = await openai.chat.completions.create({ ...ask(q), stream: true, stream_options: { include_usage: true } });
    let text = "";
    let usage: any;
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? "";
      finish ??= chunk.choices[0]?.finish_reason;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe("Hello there");
    expect(finish).toBe("stop");
    expect(usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 2, cost: 0 });
    expect(h.up.requests.length).toBe(1);
  });

  test("a streamed tool call kept, then answered as JSON and as a stream the SDK folds", async () => {
    const q = fresh();
    h.up.enqueue({
      toolCalls: [{ id: "call_1", name: "weather", arguments: ['{"city":', '"Paris"}'] }],
      finish: "tool_calls",
      usage: { input: 30, output: 8 },
    });
    const tools = [{ type: "function" as const, function: { name: "weather", parameters: { type: "object", properties: { city: { type: "string" } } } } }];
    await (await raw("/chat/completions", { ...ask(q), tools, stream: true })).text();
    const json = await openai.chat.completions.create({ ...ask(q), tools });
    expect(json.choices[0]!.finish_reason).toBe("tool_calls");
    expect(json.choices[0]!.message.tool_calls).toEqual([{ id: "call_1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } }]);
    const runner = openai.chat.completions.stream({ ...ask(q), tools });
    const final = await runner.finalChatCompletion();
    expect((final.choices[0]!.message.tool_calls?.[0] as { function?: unknown } | undefined)?.function).toEqual({
      name: "weather",
      arguments: '{"city":"Paris"}',
    });
    expect(h.up.requests.length).toBe(1);
  });

  test("a streamed hit has the chunk sequence of a live translated stream", async () => {
    const q = fresh();
    h.up.enqueue({ text: "One chunk", usage: { input: 5, output: 2 } });
    // a Messages upstream: the live answer goes through the Chat encoder, as a hit does
    const body = { model: "t/messages", messages: [{ role: "user", content: q }], stream: true };
    const live = await (await raw("/chat/completions", body)).text();
    const hit = await raw("/chat/completions", body);
    expect(hit.headers.get("x-gateway-cache")).toBe("HIT");
    const replayed = await hit.text();
    expect(shape(replayed)).toEqual(shape(live));
    const strip = (chunks: any[]) => chunks.map(({ id: _id, created: _c, usage: _u, ...rest }) => rest);
    expect(strip(sseJson(replayed))).toEqual(strip(sseJson(live)));
  });
});

describe("Responses", () => {
  test("a streamed answer kept, then read as JSON and streamed by the openai client to response.completed", async () => {
    const q = fresh();
    h.up.enqueue({ text: ["Bon", "jour"], reasoning: { text: "Greet.", summary: true }, usage: { input: 14, output: 6, reasoning: 2 } });
    const reasoning = { effort: "low" as const, summary: "auto" as const };
    await (await raw("/responses", { model: "t/responses", input: q, reasoning, stream: true })).text();
    const json = await openai.responses.create({ model: "t/responses", input: q, reasoning }).withResponse();
    expect(json.response.headers.get("x-gateway-cache")).toBe("HIT");
    expect(json.data.output_text).toBe("Bonjour");
    expect(json.data.id).toBe(json.response.headers.get("x-generation-id")!);
    expect(json.data.usage).toMatchObject({ input_tokens: 14, output_tokens: 6, output_tokens_details: { reasoning_tokens: 2 } });
    const stream = openai.responses.stream({ model: "t/responses", input: q, reasoning });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    const final = await stream.finalResponse();
    expect(final.output_text).toBe("Bonjour");
    expect(final.output.find((o) => o.type === "reasoning")).toMatchObject({ summary: [{ type: "summary_text", text: "Greet." }] });
    expect(types.at(-1)).toBe("response.completed");
    expect(types[0]).toBe("response.created");
    expect(h.up.requests.length).toBe(1);
  });

  test("a hit's id continues a conversation (previous_response_id), which sends the kept answer upstream", async () => {
    const q = fresh();
    h.up.enqueue({ text: "First answer" }, { text: "Second answer" });
    await openai.responses.create({ model: "t/responses", input: q });
    const hit = await openai.responses.create({ model: "t/responses", input: q });
    expect(h.up.requests.length).toBe(1);
    const next = await openai.responses.create({ model: "t/responses", input: "and then?", previous_response_id: hit.id });
    expect(next.output_text).toBe("Second answer");
    const input = h.up.requests[1]!.body.input as any[];
    expect(input.map((i) => i.content?.[0]?.text)).toEqual([q, "First answer", "and then?"]);
  });
});

describe("Messages", () => {
  test("a JSON answer with thinking kept, then streamed to the Anthropic SDK to message_stop", async () => {
    const q = fresh();
    h.up.enqueue({ text: "Hi.", reasoning: { text: "Be brief.", signature: "sig-1" }, usage: { input: 16, output: 5 } });
    const body = {
      model: "t/messages",
      max_tokens: 100,
      thinking: { type: "enabled" as const, budget_tokens: 50 },
      messages: [{ role: "user" as const, content: q }],
    };
    const first = await anthropic.messages.create(body);
    const stream = anthropic.messages.stream(body);
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    const final = await stream.finalMessage();
    const blocks = [
      { type: "thinking", thinking: "Be brief.", signature: "sig-1" },
      { type: "text", text: "Hi." },
    ];
    expect(first.content).toMatchObject(blocks);
    expect(final.content).toMatchObject(blocks);
    expect(final.usage).toMatchObject({ input_tokens: 16, output_tokens: 5 });
    expect(final.stop_reason).toBe("end_turn");
    expect(types[0]).toBe("message_start");
    expect(types.at(-1)).toBe("message_stop");
    expect(h.up.requests.length).toBe(1);
    const res = await stream.withResponse();
    expect(res.response.headers.get("x-gateway-cache")).toBe("HIT");
    const record = await generation(h, res.response.headers.get("x-generation-id")!);
    expect(record).toMatchObject({ cache_status: "hit", streamed: true, total_cost: 0, tokens_prompt: 16, tokens_completion: 5 });
  });

  test("a streamed hit has the event sequence of a live translated stream", async () => {
    const q = fresh();
    h.up.enqueue({ text: "One chunk", usage: { input: 5, output: 2 } });
    const body = { model: "t/chat", max_tokens: 50, messages: [{ role: "user", content: q }], stream: true };
    const live = await (await raw("/messages", body)).text();
    const replayed = await (await raw("/messages", body)).text();
    expect(shape(replayed)).toEqual(shape(live));
    expect(shape(replayed)).toEqual(["message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop"]);
  });

  test("a bad X-Gateway-Cache is a 400 in Anthropic's shape, naming the header", async () => {
    const res = await h.gw.api("/api/v1/messages", {
      method: "POST",
      key: h.key,
      headers: { "x-gateway-cache": "sometimes" },
      json: { model: "t/messages", max_tokens: 10, messages: [{ role: "user", content: "x" }] },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      type: "error",
      error: { type: "invalid_request_error", message: `Invalid header 'X-Gateway-Cache': expected on, off or refresh (got "sometimes")` },
    });
  });
});
