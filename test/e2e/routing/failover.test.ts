import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { sseJson } from "../../support/sse";
import { hi, META, type RoutingHarness, startRoutingHarness, tries } from "./setup";

let h: RoutingHarness;
beforeAll(async () => {
  h = await startRoutingHarness();
});
afterAll(() => h.close());
beforeEach(() => h.reset());

async function okJson(res: Response) {
  const text = await res.text();
  if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${text}`);
  return JSON.parse(text);
}

describe("failover before the first byte", () => {
  test("500 falls over to the next provider; attempts and provider_responses list both", async () => {
    h.pa.enqueue({ status: 500, errorBody: { error: { message: "internal" } } });
    h.pb.enqueue({ text: "from b", usage: { input: 3, output: 2 } });
    const res = await h.chat(hi(), META);
    const body = await okJson(res);
    expect(body.choices[0].message.content).toBe("from b");
    expect(body.service_metadata.provider).toBe("pb");
    expect(body.service_metadata.model).toBe("r/m");
    expect(tries(body)).toEqual([
      ["pa", 500],
      ["pb", 200],
    ]);
    for (const a of body.service_metadata.attempts) {
      expect(a.model).toBe("r/m");
      expect(typeof a.latency).toBe("number");
    }
    expect(h.pa.requests[0]!.body.model).toBe("up-a");
    expect(h.pb.requests[0]!.body.model).toBe("up-b");

    const gen = await h.generation(res.headers.get("x-generation-id")!);
    expect(gen.provider_name).toBe("pb");
    expect(gen.provider_responses.map((p: any) => [p.provider_name, p.status, p.endpoint_id, p.model_permaslug])).toEqual([
      ["pa", 500, "pa/up-a", "r/m"],
      ["pb", 200, "pb/up-b", "r/m"],
    ]);
  });

  test("429 falls over", async () => {
    h.pa.enqueue({ status: 429, headers: { "retry-after": "1" } });
    const body = await okJson(await h.chat(hi(), META));
    expect(tries(body)).toEqual([
      ["pa", 429],
      ["pb", 200],
    ]);
  });

  test("no first byte within first_byte_timeout_ms falls over", async () => {
    h.pa.enqueue({ hang: true });
    const started = Date.now();
    const body = await okJson(await h.chat(hi(), META));
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(tries(body)).toEqual([
      ["pa", 0],
      ["pb", 200],
    ]);
    await h.pa.waitForRequests(1);
    expect(h.pa.requests[0]!.abortedAt).toBeDefined();
  });

  test("a streamed request whose first event is late falls over too", async () => {
    h.pa.enqueue({ delayMs: 1000, text: ["late"] });
    h.pb.enqueue({ text: ["on ", "time"] });
    const res = await h.chat(hi("r/m", { stream: true }), META);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('"on "');
    expect(text).not.toContain('"late"');
  });

  test("a connection reset before the first byte falls over", async () => {
    h.pa.enqueue({ resetBeforeResponse: true });
    const body = await okJson(await h.chat(hi(), META));
    expect(tries(body)).toEqual([
      ["pa", 0],
      ["pb", 200],
    ]);
  });

  test("an invalid upstream body falls over (JSON and stream)", async () => {
    h.pa.enqueue({ invalidBody: true });
    const body = await okJson(await h.chat(hi(), META));
    expect(body.service_metadata.provider).toBe("pb");
    expect(body.service_metadata.attempts.map((a: any) => a.provider)).toEqual(["pa", "pb"]);

    h.pa.enqueue({ invalidBody: true });
    h.pb.enqueue({ text: ["stream ", "ok"] });
    const res = await h.chat(hi("r/m", { stream: true }), META);
    const text = await res.text();
    expect(text).toContain('"stream "');
    expect(h.pb.requests).toHaveLength(2);
  });

  test("a connection refused (provider down) falls over", async () => {
    const gw = h.gw;
    // point pa at a closed port for this test only
    const pa = gw.ctx.catalog.getProvider("pa")!;
    const saved = pa.baseUrl;
    pa.baseUrl = "http://127.0.0.1:9/v1";
    try {
      const body = await okJson(await h.chat(hi(), META));
      expect(tries(body)).toEqual([
        ["pa", 0],
        ["pb", 200],
      ]);
    } finally {
      pa.baseUrl = saved;
    }
  });

  test("a 400 caused by the request is returned at once, no fallback", async () => {
    h.pa.enqueue({ status: 400, errorBody: { error: { message: "tools are not supported", type: "invalid_request_error" } } });
    const res = await h.chat(hi());
    expect(res.status).toBe(400);
    const body = (await res.json()) as any;
    expect(body.error.message).toBe("Provider pa rejected the request: tools are not supported");
    expect(body.error.metadata).toEqual({ provider_name: "pa", raw: { error: { message: "tools are not supported", type: "invalid_request_error" } } });
    expect(h.pb.requests).toHaveLength(0);
  });
});

describe("after the first streamed byte", () => {
  test("no fallback: the client sees the text, then the terminal error; pb gets nothing", async () => {
    h.pa.enqueue({ text: ["Hel", "lo", " there", " friend"], failAfterEvents: 3 });
    const res = await h.chat(hi("r/m", { stream: true }));
    expect(res.status).toBe(200);
    const text = await res.text();
    const events = sseJson(text);
    // the mock's 3 events: role, "Hel", "lo"; then the connection is cut
    const content = events.map((e) => e.choices?.[0]?.delta?.content ?? "").join("");
    expect(content).toBe("Hello");
    const last = events.at(-1);
    expect(last.error.code).toBe(502);
    expect(last.error.metadata).toEqual({ error_type: "provider_unavailable" });
    expect(last.choices).toEqual([{ index: 0, delta: { content: "" }, finish_reason: "error" }]);
    expect(text.includes("[DONE]")).toBe(false);
    expect(h.pb.requests).toHaveLength(0);
    // the generation is recorded as an error on pa, with the one try
    const gen = await h.generation(res.headers.get("x-generation-id")!);
    expect(gen.provider_name).toBe("pa");
    expect(gen.finish_reason).toBe("error");
    expect(gen.provider_responses.map((p: any) => [p.provider_name, p.status])).toEqual([["pa", 200]]);
  });
});

describe("models fallback", () => {
  test("chat: model, then each of models", async () => {
    h.pa.enqueue({ status: 503 });
    h.pc.enqueue({ text: "other model" });
    const body = await okJson(await h.chat(hi("r/solo", { models: ["r/other"] }), META));
    expect(body.model).toBe("r/other");
    expect(body.choices[0].message.content).toBe("other model");
    expect(body.service_metadata.attempts.map((a: any) => [a.model, a.provider, a.status])).toEqual([
      ["r/solo", "pa", 503],
      ["r/other", "pc", 200],
    ]);
    expect(h.pc.requests[0]!.body.model).toBe("up-other");
  });

  test("responses: models fallback", async () => {
    h.pa.enqueue({ status: 500 });
    h.pc.enqueue({ text: "via responses" });
    const body = await okJson(await h.post("/api/v1/responses", { model: "r/solo", models: ["r/other"], input: "hi" }, META));
    expect(body.model).toBe("r/other");
    expect(body.output.at(-1).content[0].text).toBe("via responses");
    expect(body.service_metadata.attempts.map((a: any) => a.model)).toEqual(["r/solo", "r/other"]);
  });

  test("messages: models fallback", async () => {
    h.pa.enqueue({ status: 500 });
    h.pc.enqueue({ text: "via messages" });
    const body = await okJson(
      await h.post("/api/v1/messages", { model: "r/solo", models: ["r/other"], max_tokens: 50, messages: [{ role: "user", content: "hi" }] }, META),
    );
    expect(body.model).toBe("r/other");
    expect(body.content[0].text).toBe("via messages");
    expect(body.service_metadata.attempts.map((a: any) => a.model)).toEqual(["r/solo", "r/other"]);
  });

  test("the openai SDK sees the fallback model", async () => {
    h.pa.enqueue({ status: 502 });
    h.pc.enqueue({ text: "sdk" });
    const client = new OpenAI({ apiKey: h.key, baseURL: `${h.gw.url}/api/v1`, maxRetries: 0 });
    const out = await client.chat.completions.create({ model: "r/solo", messages: [{ role: "user", content: "hi" }], models: ["r/other"] } as any);
    expect(out.model).toBe("r/other");
    expect(out.choices[0]!.message.content).toBe("sdk");
  });
});

describe("when every candidate fails", () => {
  test("final 429 keeps its status and passes Retry-After on", async () => {
    h.pa.enqueue({ status: 429, headers: { "retry-after": "9" } });
    h.pb.enqueue({ status: 429, headers: { "retry-after": "4" }, errorBody: { error: { message: "slow down" } } });
    const res = await h.chat(hi());
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("4");
    const body = (await res.json()) as any;
    expect(body.error.code).toBe(429);
    expect(body.error.metadata.provider_name).toBe("pb");
    expect(body.error.metadata.raw).toEqual({ error: { message: "slow down" } });
    expect(res.headers.get("x-generation-id")).toMatch(/^gen-/);
  });

  test("the SDK reads the 429", async () => {
    h.pa.enqueue({ status: 429, headers: { "retry-after": "2" } });
    h.pb.enqueue({ status: 429, headers: { "retry-after": "2" } });
    const client = new OpenAI({ apiKey: h.key, baseURL: `${h.gw.url}/api/v1`, maxRetries: 0 });
    const err = await client.chat.completions.create({ model: "r/m", messages: [{ role: "user", content: "hi" }] }).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect(err.headers.get("retry-after")).toBe("2");
  });

  test("all time out: 408", async () => {
    h.pa.enqueue({ hang: true });
    h.pb.enqueue({ hang: true });
    const res = await h.chat(hi(), META);
    expect(res.status).toBe(408);
    const body = (await res.json()) as any;
    expect(body.error.message).toBe("No provider answered within the first-byte timeout (pa, pb)");
  });

  test("otherwise 502 with provider_name and raw", async () => {
    h.pa.enqueue({ status: 500, errorBody: { error: { message: "a down" } } });
    h.pb.enqueue({ status: 503, errorBody: { error: { message: "b overloaded", code: "overloaded" } } });
    const res = await h.chat(hi());
    expect(res.status).toBe(502);
    const body = (await res.json()) as any;
    expect(body.error.message).toBe("Provider pb failed: b overloaded");
    expect(body.error.metadata).toEqual({ provider_name: "pb", raw: { error: { message: "b overloaded", code: "overloaded" } } });

    // the failed generation keeps every try
    const gen = await h.generation(res.headers.get("x-generation-id")!);
    expect(gen.provider_responses.map((p: any) => [p.provider_name, p.status])).toEqual([
      ["pa", 500],
      ["pb", 503],
    ]);
  });

  test("a 429 followed by a timeout still answers 429", async () => {
    h.pa.enqueue({ status: 429, headers: { "retry-after": "3" } });
    h.pb.enqueue({ hang: true });
    const res = await h.chat(hi());
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("3");
  });

  test("streaming: the failure before any byte is a plain HTTP error", async () => {
    h.pa.enqueue({ status: 500 });
    h.pb.enqueue({ status: 500 });
    const res = await h.chat(hi("r/m", { stream: true }));
    expect(res.status).toBe(502);
  });
});
