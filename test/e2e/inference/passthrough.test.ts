// Same format in and out passes the upstream's answer through: fields the gateway does not know
// (top level, nested, in every stream event) reach the client, under the gateway's id, model and
// charged usage. A translated pair still goes through the encoder: none of them arrive.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { parseSse } from "../../support/sse";
import { expectedCost, type Harness, type Inbound, MODEL, minimalBody, post, startHarness, TRANSLATED_PAIRS } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.up.reset());

const USAGE = { input: 7, output: 3, cached: 2 };
const COST = expectedCost(USAGE);
/** Marks every upstream event, so the client's events show which are the upstream's own. */
const markEvents = (value: any) => ({ ...value, x_event: value.type ?? "chunk" });

async function streamed(inbound: Inbound, model: string) {
  const res = await post(h, inbound, minimalBody(inbound, model, { stream: true }));
  expect(res.status).toBe(200);
  return { id: res.headers.get("x-generation-id")!, events: parseSse(await res.text()) };
}

describe("chat client, openai-chat upstream", () => {
  test("JSON: the upstream's own fields survive, top level and nested", async () => {
    h.up.enqueue({
      text: "Hi",
      usage: USAGE,
      alter: (b) => ({ ...b, x_upstream: { kept: true }, choices: b.choices.map((c: any) => ({ ...c, message: { ...c.message, x_note: "nested" } })) }),
    });
    const { data, response } = await h.openai.chat.completions
      .create({ model: MODEL["openai-chat"], messages: [{ role: "user", content: "hi" }] })
      .withResponse();
    const body = data as any;
    expect(body.x_upstream).toEqual({ kept: true });
    expect(body.service_tier).toBe("default");
    // the encoder answered annotations and the note away; passthrough keeps the message as sent
    expect(body.choices[0].message).toEqual({ role: "assistant", content: "Hi", refusal: null, annotations: [], x_note: "nested" });
    expect(body.choices[0].finish_reason).toBe("stop");
    expect(body.choices[0].native_finish_reason).toBe("stop");
    expect(body.id).toBe(response.headers.get("x-generation-id")!);
    expect(body.model).toBe(MODEL["openai-chat"]);
    expect([body.usage.prompt_tokens, body.usage.completion_tokens, body.usage.prompt_tokens_details.cached_tokens, body.usage.cost]).toEqual([7, 3, 2, COST]);
  });

  test("stream: every chunk is the upstream's, with the gateway's id and model and the charged usage at the end", async () => {
    h.up.enqueue({ text: ["a", "b", "c"], usage: USAGE, alter: markEvents });
    const { id, events } = await streamed("chat", MODEL["openai-chat"]);
    expect(events.at(-1)).toEqual({ data: "[DONE]" });
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data));
    expect(chunks.map((c) => c.x_event)).toEqual(Array(chunks.length).fill("chunk"));
    expect(chunks.every((c) => c.id === id && c.model === MODEL["openai-chat"] && c.service_tier === "default")).toBe(true);
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? "").join("")).toBe("abc");
    const finish = chunks.find((c) => c.choices[0]?.finish_reason);
    expect(finish.choices[0]).toEqual({ index: 0, delta: {}, logprobs: null, finish_reason: "stop", native_finish_reason: "stop" });
    expect(chunks.at(-1).choices).toEqual([]);
    expect(chunks.at(-1).usage).toEqual({
      prompt_tokens: 7,
      completion_tokens: 3,
      total_tokens: 10,
      cost: COST,
      is_byok: false,
      cost_details: { upstream_inference_cost: null, upstream_inference_prompt_cost: 0.0000052, upstream_inference_completions_cost: 0.000006 },
      prompt_tokens_details: { cached_tokens: 2, cache_write_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0 },
    });
  });
});

describe("responses client, openai-responses upstream", () => {
  test("JSON: the upstream's own fields survive, output items under ids of this answer", async () => {
    h.up.enqueue({
      text: "Hi",
      usage: USAGE,
      alter: (b) => ({ ...b, x_upstream: { kept: true }, output: b.output.map((i: any) => ({ ...i, x_note: "nested" })) }),
    });
    const { data, response } = await h.openai.responses.create({ model: MODEL["openai-responses"], input: "hi" }).withResponse();
    const body = data as any;
    const id = response.headers.get("x-generation-id")!;
    expect(body.x_upstream).toEqual({ kept: true });
    expect(body.output).toEqual([
      {
        id: `msg_${id}_0`,
        type: "message",
        status: "completed",
        role: "assistant",
        content: [{ type: "output_text", annotations: [], logprobs: [], text: "Hi" }],
        x_note: "nested",
      },
    ]);
    expect([body.id, body.model, body.status, body.output_text]).toEqual([id, MODEL["openai-responses"], "completed", "Hi"]);
    expect(body.usage).toMatchObject({ input_tokens: 7, output_tokens: 3, input_tokens_details: { cached_tokens: 2 }, cost: COST });
  });

  test("stream: every event is the upstream's, renumbered, its items and envelopes the gateway's", async () => {
    h.up.enqueue({
      text: ["a", "b", "c"],
      usage: USAGE,
      alter: (v) => ({ ...markEvents(v), ...(v.response ? { response: { ...v.response, x_resp: 1 } } : {}) }),
    });
    const { id, events } = await streamed("responses", MODEL["openai-responses"]);
    const data = events.map((e) => JSON.parse(e.data));
    expect(data.map((d) => d.x_event)).toEqual(data.map((d) => d.type));
    expect(events.map((e) => e.event)).toEqual(data.map((d) => d.type));
    expect(data.map((d) => d.sequence_number)).toEqual(data.map((_, i) => i));
    const envelopes = data.filter((d) => d.response);
    expect(envelopes.map((d) => [d.type, d.response.id, d.response.model, d.response.x_resp])).toEqual([
      ["response.created", id, MODEL["openai-responses"], 1],
      ["response.in_progress", id, MODEL["openai-responses"], 1],
      ["response.completed", id, MODEL["openai-responses"], 1],
    ]);
    const itemIds = data.flatMap((d) => [d.item?.id, d.item_id].filter((x) => x !== undefined));
    expect(new Set(itemIds)).toEqual(new Set([`msg_${id}_0`]));
    const done = data.at(-1).response;
    expect(done.output.map((i: any) => i.id)).toEqual([`msg_${id}_0`]);
    expect(done.output_text).toBe("abc");
    expect(done.usage).toMatchObject({ input_tokens: 7, output_tokens: 3, input_tokens_details: { cached_tokens: 2 }, cost: COST });
  });
});

describe("messages client, anthropic-messages upstream", () => {
  const serverTool = { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "q" } };

  test("JSON: the upstream's own fields and blocks the IR cannot carry survive", async () => {
    h.up.enqueue({
      text: "Hi",
      usage: USAGE,
      alter: (b) => ({ ...b, x_upstream: { kept: true }, content: [serverTool, ...b.content.map((c: any) => ({ ...c, x_note: "nested" }))] }),
    });
    const { data, response } = await h.anthropic.messages
      .create({ model: MODEL["anthropic-messages"], max_tokens: 100, messages: [{ role: "user", content: "hi" }] })
      .withResponse();
    const body = data as any;
    expect(body.x_upstream).toEqual({ kept: true });
    expect(body.content).toEqual([serverTool, { type: "text", text: "Hi", x_note: "nested" }]);
    expect([body.id, body.model, body.stop_reason]).toEqual([response.headers.get("x-generation-id")!, MODEL["anthropic-messages"], "end_turn"]);
    expect(body.usage).toMatchObject({ input_tokens: 5, cache_read_input_tokens: 2, output_tokens: 3, cost: COST });
  });

  test("stream: every event is the upstream's; message_start carries the gateway's id and model, message_delta the charged usage", async () => {
    h.up.enqueue({ text: ["a", "b", "c"], usage: USAGE, alter: (v) => ({ ...markEvents(v), ...(v.message ? { message: { ...v.message, x_msg: 1 } } : {}) }) });
    const { id, events } = await streamed("messages", MODEL["anthropic-messages"]);
    const data = events.map((e) => JSON.parse(e.data));
    expect(data.map((d) => d.x_event)).toEqual(events.map((e) => e.event));
    expect(events.map((e) => e.event)).toEqual([
      "message_start",
      "ping",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    // the upstream's own message_start: its provisional output count and service tier stay
    expect(data[0].message).toMatchObject({
      id,
      model: MODEL["anthropic-messages"],
      x_msg: 1,
      usage: { input_tokens: 5, cache_read_input_tokens: 2, output_tokens: 1 },
    });
    expect(
      data
        .filter((d) => d.type === "content_block_delta")
        .map((d) => d.delta.text)
        .join(""),
    ).toBe("abc");
    const delta = data.find((d) => d.type === "message_delta");
    expect(delta.delta).toEqual({ stop_reason: "end_turn", stop_sequence: null });
    expect(delta.usage).toMatchObject({
      input_tokens: 5,
      cache_read_input_tokens: 2,
      cache_creation_input_tokens: 0,
      output_tokens: 3,
      cost: COST,
      is_byok: false,
    });
  });
});

describe("a translated pair still goes through the encoder", () => {
  for (const [inbound, upstream] of TRANSLATED_PAIRS) {
    test(`${inbound} -> ${upstream}: no upstream field reaches the client`, async () => {
      h.up.enqueue({ text: "Hi", alter: (b) => ({ ...b, x_upstream: true }) }, { text: ["a", "b"], alter: markEvents });
      const json = await post(h, inbound, minimalBody(inbound, MODEL[upstream]));
      const text = await json.text();
      expect(json.status).toBe(200);
      expect(text).toContain("Hi");
      expect(text).not.toContain("x_upstream");
      const { events } = await streamed(inbound, MODEL[upstream]);
      expect(events.length).toBeGreaterThan(3);
      expect(events.some((e) => e.data.includes("x_event"))).toBe(false);
    });
  }
});
