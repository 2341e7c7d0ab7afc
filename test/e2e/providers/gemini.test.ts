// The Gemini API upstream end to end: the key only in x-goog-api-key, the method in the path,
// AI Studio's 400 API_KEY_INVALID counted as the endpoint's bad credential (failover, one warn line
// naming the provider, no key in it), other 400s passed on, 429/503 falling over, and BYOK keys.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createLogger } from "../../../src/logger";
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";
import { type MockUpstream, startMockUpstream } from "../../support/mock-upstream";

let up: MockUpstream;
let gw: TestGateway;
let key: string;
const logLines: string[] = [];
const OWN_KEY = "AIzaSy-own-gateway-key-0123456789";

const INVALID_KEY = {
  error: {
    code: 400,
    message: "API key not valid. Please pass a valid API key.",
    status: "INVALID_ARGUMENT",
    details: [
      {
        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
        reason: "API_KEY_INVALID",
        domain: "googleapis.com",
        metadata: { service: "generativelanguage.googleapis.com" },
      },
    ],
  },
};

beforeAll(async () => {
  up = await startMockUpstream();
  gw = await startTestGateway({
    logger: createLogger("warn", (line) => logLines.push(line)),
    yaml: `
catalog: { default: false }
routing: { circuit_failures: 1000 }
providers:
  - { slug: gm, name: AI Studio, api: gemini, base_url: "${up.url}", api_key: "${OWN_KEY}" }
  - { slug: oc, api: openai-chat, base_url: "${up.url}", api_key: k1 }
models:
  - id: t/gem
    endpoints: [{ provider: gm, model: gemini-2.5-flash, pricing: { prompt: "0.000001", completion: "0.000002" } }]
  - id: t/chat
    endpoints: [{ provider: oc, model: up-chat, pricing: { prompt: "0.000001", completion: "0.000002" } }]
`,
  });
  ({ key } = await createInferenceKey(gw, { name: "gemini e2e" }));
});
afterAll(async () => {
  await gw.close();
  await up.stop();
});
beforeEach(() => {
  up.reset();
  logLines.length = 0;
});

const chat = (body: Record<string, unknown> = {}) =>
  gw.api("/api/v1/chat/completions", { method: "POST", key, json: { model: "t/gem", messages: [{ role: "user", content: "hi" }], ...body } });

describe("the Gemini API upstream", () => {
  test("the key goes in x-goog-api-key and never in the URL; the method and the stream switch are in the path", async () => {
    up.enqueue({ text: "a" }, { text: ["b", "c"] });
    expect((await chat()).status).toBe(200);
    const stream = await chat({ stream: true });
    expect(await stream.text()).toContain('"content":"c"');
    const [json, sse] = up.requests;
    expect([json!.path, json!.headers["x-goog-api-key"], json!.headers.authorization]).toEqual([
      "/v1/models/gemini-2.5-flash:generateContent",
      OWN_KEY,
      undefined,
    ]);
    expect([sse!.path, sse!.headers["x-goog-api-key"], sse!.headers.accept]).toEqual([
      "/v1/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
      OWN_KEY,
      "text/event-stream",
    ]);
    expect(up.requests.every((r) => !r.path.includes("key="))).toBe(true);
  });

  test("400 API_KEY_INVALID is the endpoint's bad key: the next model serves, one warn line names the provider and not the key", async () => {
    up.enqueue({ status: 400, errorBody: INVALID_KEY }, { text: "from chat" });
    const res = await chat({ models: ["t/chat"] });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).choices[0].message.content).toBe("from chat");
    const warned = logLines.map((l) => JSON.parse(l)).filter((l) => l.msg === "upstream failed");
    expect(warned).toEqual([
      expect.objectContaining({ level: "warn", provider: "gm", status: 401, retryable: true, error: "API key not valid. Please pass a valid API key." }),
    ]);
    expect(logLines.join("\n")).not.toContain(OWN_KEY);
  });

  test("... and with no other model, the client gets a 502 naming the provider, not its own 400", async () => {
    up.enqueue({ status: 400, errorBody: INVALID_KEY });
    const res = await chat();
    expect(res.status).toBe(502);
    expect(((await res.json()) as any).error).toMatchObject({
      code: 502,
      message: "Provider gm failed: API key not valid. Please pass a valid API key.",
      metadata: { provider_name: "gm" },
    });
  });

  test("another 400 is the request's fault: passed on with Google's message", async () => {
    up.enqueue({
      status: 400,
      errorBody: { error: { code: 400, message: "* GenerateContentRequest.generation_config.temperature: must be <= 2", status: "INVALID_ARGUMENT" } },
    });
    const res = await chat({ models: ["t/chat"] });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.message).toBe(
      "Provider gm rejected the request: * GenerateContentRequest.generation_config.temperature: must be <= 2",
    );
    expect(up.requests.length).toBe(1);
  });

  test("429 and 503 fall over to the next model, with Google's message in the attempt", async () => {
    for (const status of [429, 503]) {
      up.reset();
      up.enqueue({ status }, { text: "served" });
      const res = await chat({ models: ["t/chat"] });
      expect(res.status).toBe(200);
      expect(up.requests.map((r) => r.path)).toEqual(["/v1/models/gemini-2.5-flash:generateContent", "/v1/chat/completions"]);
    }
  });

  test("BYOK: an AI Studio key replaces the gateway's; a key with spaces is a 400 naming `key`", async () => {
    const bad = await gw.api("/api/v1/byok", { method: "POST", json: { provider: "gm", key: "AIza two words" } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error).toMatchObject({
      code: 400,
      message: "Invalid field 'key': the AI Studio key is not an API key (it has spaces or line breaks)",
      metadata: { field: "key" },
    });
    const created = await gw.api("/api/v1/byok", { method: "POST", json: { provider: "gm", key: "AIzaSy-workspace-key-abcdef012345" } });
    expect(created.status).toBe(201);
    const { data } = (await created.json()) as any;
    expect(data.label).toBe("AIza...2345");
    up.enqueue({ text: "byok" });
    const res = await chat();
    expect(res.status).toBe(200);
    expect(up.requests[0]!.headers["x-goog-api-key"]).toBe("AIzaSy-workspace-key-abcdef012345");
    await gw.api(`/api/v1/byok/${data.id}`, { method: "DELETE" });
  });
});
