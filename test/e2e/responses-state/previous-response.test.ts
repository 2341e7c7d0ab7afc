// previous_response_id: a request continues from an earlier response of its workspace, whose
// input and output items go first (OpenAI's semantics: instructions are not carried over).
// Plain fetch and the openai SDK, every upstream format, streamed and not.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { type Harness, MODEL, post, startHarness, UPSTREAMS, type UpstreamKind, WIRE } from "../inference/harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.up.reset());

const user = (upstream: UpstreamKind, text: string) =>
  WIRE[upstream] === "gemini"
    ? { role: "user", parts: [{ text }] }
    : WIRE[upstream] === "openai-responses"
      ? { type: "message", role: "user", content: [{ type: "input_text", text }] }
      : WIRE[upstream] === "openai-chat"
        ? { role: "user", content: text }
        : upstream === "bedrock"
          ? { role: "user", content: [{ text }] }
          : { role: "user", content: [{ type: "text", text }] };

const assistant = (upstream: UpstreamKind, text: string) =>
  WIRE[upstream] === "gemini"
    ? { role: "model", parts: [{ text }] }
    : WIRE[upstream] === "openai-responses"
      ? { type: "message", role: "assistant", content: [{ type: "output_text", text, annotations: [] }] }
      : WIRE[upstream] === "openai-chat"
        ? { role: "assistant", content: text }
        : upstream === "bedrock"
          ? { role: "assistant", content: [{ text }] }
          : { role: "assistant", content: [{ type: "text", text }] };

const historyOf = (upstream: UpstreamKind, body: any) =>
  WIRE[upstream] === "gemini" ? body.contents : WIRE[upstream] === "openai-responses" ? body.input : body.messages;

describe("previous_response_id with plain fetch", () => {
  for (const upstream of UPSTREAMS) {
    test(upstream, async () => {
      h.up.enqueue({ text: "A1" }, { text: "A2" }, { text: "A3" });
      const first = (await (await post(h, "responses", { model: MODEL[upstream], instructions: "Be brief.", input: "q1" })).json()) as any;
      expect(first.store).toBe(true);
      expect(first.previous_response_id).toBeNull();

      const second = (await (
        await post(h, "responses", { model: MODEL[upstream], previous_response_id: first.id, input: [{ role: "user", content: "q2" }] })
      ).json()) as any;
      expect(second.output_text).toBe("A2");
      expect(second.previous_response_id).toBe(first.id);
      // the instructions of the first request are not carried over, as with OpenAI
      expect(historyOf(upstream, h.up.requests[1]!.body)).toEqual([user(upstream, "q1"), assistant(upstream, "A1"), user(upstream, "q2")]);
      if (WIRE[upstream] === "anthropic-messages") expect(h.up.requests[1]!.body.system).toBeUndefined();
      if (WIRE[upstream] === "gemini") expect(h.up.requests[1]!.body.systemInstruction).toBeUndefined();

      const third = await post(h, "responses", { model: MODEL[upstream], previous_response_id: second.id, input: "q3" });
      expect(third.status).toBe(200);
      expect(historyOf(upstream, h.up.requests[2]!.body)).toEqual([
        user(upstream, "q1"),
        assistant(upstream, "A1"),
        user(upstream, "q2"),
        assistant(upstream, "A2"),
        user(upstream, "q3"),
      ]);
    });
  }

  test("the items of the previous response are exactly what the client received, reasoning included", async () => {
    h.up.enqueue({ reasoning: { text: "Plan.", encrypted: "enc-1" }, text: "A1" }, { text: "A2" });
    const first = (await (await post(h, "responses", { model: MODEL["openai-responses"], input: "q1", reasoning: { effort: "low" } })).json()) as any;
    expect(first.output[0]).toEqual({
      type: "reasoning",
      id: "rs_mock1",
      summary: [],
      content: [{ type: "reasoning_text", text: "Plan." }],
      encrypted_content: "enc-1",
    });
    await post(h, "responses", { model: MODEL["openai-responses"], previous_response_id: first.id, input: "q2" });
    const sent = h.up.requests[1]!.body.input;
    expect(sent[1]).toEqual({
      type: "reasoning",
      id: "rs_mock1",
      summary: [],
      content: [{ type: "reasoning_text", text: "Plan." }],
      encrypted_content: "enc-1",
    });
    expect(sent.slice(2)).toEqual([assistant("openai-responses", "A1"), user("openai-responses", "q2")]);
  });
});

describe("previous_response_id with the openai SDK", () => {
  for (const upstream of UPSTREAMS) {
    for (const stream of [false, true]) {
      test(`${upstream} ${stream ? "stream" : "json"}`, async () => {
        h.up.enqueue({ text: "A1" }, { text: "A2" }, { text: "A3" });
        const send = (body: { input: string; previous_response_id?: string }) =>
          stream
            ? h.openai.responses.stream({ model: MODEL[upstream], ...body }).finalResponse()
            : h.openai.responses.create({ model: MODEL[upstream], ...body });
        const first = await send({ input: "q1" });
        const second = await send({ input: "q2", previous_response_id: first.id });
        expect(second.previous_response_id).toBe(first.id);
        const third = await send({ input: "q3", previous_response_id: second.id });
        expect(third.output_text).toBe("A3");
        expect(historyOf(upstream, h.up.requests[2]!.body)).toEqual([
          user(upstream, "q1"),
          assistant(upstream, "A1"),
          user(upstream, "q2"),
          assistant(upstream, "A2"),
          user(upstream, "q3"),
        ]);
      });
    }
  }
});

describe("store: false", () => {
  test("keeps nothing: the response cannot be continued, and says so", async () => {
    h.up.enqueue({ text: "A1" });
    const first = (await (await post(h, "responses", { model: MODEL["openai-chat"], input: "q1", store: false })).json()) as any;
    expect(first.store).toBe(false);
    const res = await post(h, "responses", { model: MODEL["openai-chat"], input: [{ type: "item_reference", id: first.output[0].id }] });
    expect(res.status).toBe(400);
    const next = await post(h, "responses", { model: MODEL["openai-chat"], previous_response_id: first.id, input: "q2" });
    expect(next.status).toBe(400);
    expect(h.up.requests.length).toBe(1);
  });

  test("references still resolve in a request that keeps nothing itself", async () => {
    h.up.enqueue({ text: "A1" }, { text: "A2" });
    const first = (await (await post(h, "responses", { model: MODEL["openai-chat"], input: "q1" })).json()) as any;
    const second = await post(h, "responses", {
      model: MODEL["openai-chat"],
      store: false,
      input: [
        { role: "user", content: "q1" },
        { type: "item_reference", id: first.output[0].id },
        { role: "user", content: "q2" },
      ],
    });
    expect(second.status).toBe(200);
    expect(h.up.requests[1]!.body.messages).toEqual([
      { role: "user", content: "q1" },
      { role: "assistant", content: "A1" },
      { role: "user", content: "q2" },
    ]);
  });
});
