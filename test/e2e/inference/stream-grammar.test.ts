// The SSE grammar each inbound format's clients rely on, read with plain fetch (no SDK to
// smooth anything over), and the X-Generation-Id header on every kind of inference response.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { parseSse } from "../../support/sse";
import { expectedCost, type Harness, INBOUND_PATH, INBOUNDS, MODEL, minimalBody, post, startHarness, UPSTREAMS } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.up.reset());

const GEN_ID = /^gen-[0-9]+-[A-Za-z0-9_-]+$/;
const TURN = { text: ["a", "b", "c"], usage: { input: 7, output: 3, cached: 2 } };
const COST = expectedCost(TURN.usage);

async function streamFrom(inbound: (typeof INBOUNDS)[number], model: string) {
  const res = await post(h, inbound, minimalBody(inbound, model, { stream: true }));
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toStartWith("text/event-stream");
  const id = res.headers.get("x-generation-id");
  expect(id).toMatch(GEN_ID);
  return { id: id!, events: parseSse(await res.text()) };
}

describe("chat: chunks, usage on the final chunk, then data: [DONE]", () => {
  for (const upstream of UPSTREAMS) {
    test(upstream, async () => {
      h.up.enqueue(TURN);
      const { id, events } = await streamFrom("chat", MODEL[upstream]);
      expect(events.at(-1)).toEqual({ data: "[DONE]" });
      expect(events.every((e) => e.event === undefined)).toBe(true);
      const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data));
      for (const c of chunks) {
        expect(c.object).toBe("chat.completion.chunk");
        expect(c.id).toBe(id);
        expect(c.model).toBe(MODEL[upstream]);
      }
      expect(chunks[0].choices[0].delta.role).toBe("assistant");
      expect(chunks.map((c) => c.choices[0]?.delta?.content ?? "").join("")).toBe("abc");
      const finish = chunks.filter((c) => c.choices[0]?.finish_reason);
      expect(finish.map((c) => c.choices[0].finish_reason)).toEqual(["stop"]);
      const last = chunks.at(-1);
      expect(last.choices).toEqual([]);
      expect(last.usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 3, total_tokens: 10, cost: COST, prompt_tokens_details: { cached_tokens: 2 } });
      expect(chunks.filter((c) => c.usage).length).toBe(1);
    });
  }
});

describe("responses: every event has sequence_number counting up from 0", () => {
  for (const upstream of UPSTREAMS) {
    test(upstream, async () => {
      h.up.enqueue(TURN);
      const { id, events } = await streamFrom("responses", MODEL[upstream]);
      const data = events.filter((e) => e.data !== "[DONE]").map((e) => JSON.parse(e.data));
      expect(data.map((d) => d.sequence_number)).toEqual(data.map((_, i) => i));
      for (const e of events) if (e.event !== undefined) expect(e.event).toBe(JSON.parse(e.data).type);
      expect(data.map((d) => d.type)).toEqual([
        "response.created",
        "response.in_progress",
        "response.output_item.added",
        "response.content_part.added",
        "response.output_text.delta",
        "response.output_text.delta",
        "response.output_text.delta",
        "response.output_text.done",
        "response.content_part.done",
        "response.output_item.done",
        "response.completed",
      ]);
      expect(data[0].response).toMatchObject({ id, status: "in_progress", model: MODEL[upstream] });
      const done = data.at(-1).response;
      expect(done).toMatchObject({ id, status: "completed", output_text: "abc" });
      expect(done.usage).toMatchObject({ input_tokens: 7, output_tokens: 3, input_tokens_details: { cached_tokens: 2 }, cost: COST });
    });
  }
});

describe("messages: every event has an event: line naming its type", () => {
  for (const upstream of UPSTREAMS) {
    test(upstream, async () => {
      h.up.enqueue(TURN);
      const { id, events } = await streamFrom("messages", MODEL[upstream]);
      for (const e of events) {
        expect(e.event).toBeDefined();
        expect(JSON.parse(e.data).type).toBe(e.event!);
      }
      expect(events.map((e) => e.event).filter((e) => e !== "ping")).toEqual([
        "message_start",
        "content_block_start",
        "content_block_delta",
        "content_block_delta",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
      ]);
      const start = JSON.parse(events[0]!.data);
      expect(start.message).toMatchObject({ id, type: "message", role: "assistant", model: MODEL[upstream], content: [], stop_reason: null });
      const delta = JSON.parse(events.find((e) => e.event === "message_delta")!.data);
      expect(delta.delta.stop_reason).toBe("end_turn");
      expect(delta.usage).toMatchObject({ input_tokens: 5, cache_read_input_tokens: 2, output_tokens: 3, cost: COST });
    });
  }
});

describe("X-Generation-Id on every inference response", () => {
  for (const inbound of INBOUNDS) {
    test(`${inbound}: JSON, SSE, upstream error and unknown model`, async () => {
      h.up.enqueue({ text: "x" });
      const json = await post(h, inbound, minimalBody(inbound, MODEL["openai-chat"]));
      expect(json.status).toBe(200);
      const id = json.headers.get("x-generation-id");
      expect(id).toMatch(GEN_ID);
      expect(((await json.json()) as any).id).toBe(id);

      h.up.enqueue({ text: "x" });
      const sse = await post(h, inbound, minimalBody(inbound, MODEL["anthropic-messages"], { stream: true }));
      expect(sse.headers.get("x-generation-id")).toMatch(GEN_ID);
      expect(sse.headers.get("x-generation-id")).not.toBe(id);
      await sse.text();

      h.up.enqueue({ status: 500 });
      const failed = await post(h, inbound, minimalBody(inbound, MODEL["openai-responses"]));
      expect(failed.status).toBe(502);
      expect(failed.headers.get("x-generation-id")).toMatch(GEN_ID);

      const unknown = await post(h, inbound, minimalBody(inbound, "nobody/nothing"));
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get("x-generation-id")).toMatch(GEN_ID);
    });

    // Auth and schema validation fail inside Elysia before runInference assigns an id; the header
    // needs a hook on the inference routes (src/modules/inference), which this suite does not own.
    test(`${inbound}: schema and auth errors still get X-Generation-Id`, async () => {
      const invalid = await post(h, inbound, minimalBody(inbound, MODEL["openai-chat"], { metadata: { "bad[key]": "v" } }));
      expect(invalid.status).toBe(400);
      expect(invalid.headers.get("x-generation-id")).toMatch(GEN_ID);
      for (const [key, status] of [
        [null, 401],
        [h.gw.adminKey, 403],
      ] as const) {
        const res = await h.gw.api(INBOUND_PATH[inbound], { method: "POST", key, json: minimalBody(inbound, MODEL["openai-chat"]) });
        expect(res.status).toBe(status);
        expect(res.headers.get("x-generation-id")).toMatch(GEN_ID);
      }
    });
  }
});
