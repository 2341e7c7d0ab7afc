// The azure-openai upstream API end to end, beyond the golden matrix: the api-key header, a
// reasoning deployment's max_completion_tokens and reasoning_effort, the content filter (a 400
// naming it, and an answer it stopped), 429s with retry-after-ms, a rejected key, failover to
// another provider, embeddings on a deployment, and OpenRouter's SDK reading an Azure stream.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { OpenRouter } from "@openrouter/sdk";
import OpenAI from "openai";
import { createLogger } from "../../../src/logger";
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";
import { type MockUpstream, type RecordedRequest, startMockUpstream } from "../../support/mock-upstream";
import { azureContentFilterError } from "../../support/mock-upstream/render-azure";
import { call } from "../inference/drivers";
import { fetchGeneration, type Harness, type Inbound, minimalBody, post } from "../inference/harness";

const PRICING = `{ prompt: "0.000001", completion: "0.000002", input_cache_read: "0.0000001" }`;
/** USD for a turn: uncached prompt, cached prompt and completion at the prices above. */
const cost = (input: number, output: number, cached = 0) => ((input - cached) * 1000 + cached * 100 + output * 2000) / 1e9;

let up: MockUpstream;
let gw: TestGateway;
let key: string;
let h: Harness;
const logs: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  up = await startMockUpstream();
  const origin = new URL(up.url).origin;
  gw = await startTestGateway({
    logger: createLogger("warn", (line) => logs.push(JSON.parse(line))),
    yaml: `
catalog: { default: false }
routing: { circuit_failures: 1000 }
providers:
  - { slug: az, name: Azure, api: azure-openai, base_url: "${origin}", api_key: azure-own-key-0123456789 }
  - { slug: az2, name: Azure West, api: azure-openai, base_url: "${origin}/", api_key: west-key-0123456789, azure: { api_version: "2024-10-21" } }
  - { slug: oc, api: openai-chat, base_url: "${up.url}", api_key: openai-key }
  - { slug: azbyok, name: Azure BYOK, api: azure-openai, base_url: "${origin}" }
models:
  - id: t/gpt
    input_modalities: [text, image]
    endpoints: [{ provider: az, model: gpt4o-prod, pricing: ${PRICING} }]
  - id: t/o3
    endpoints: [{ provider: az, model: o3-prod, pricing: ${PRICING} }]
  - id: t/both
    endpoints:
      - { provider: az, model: gpt4o-prod, pricing: ${PRICING} }
      - { provider: oc, model: up-chat, pricing: ${PRICING} }
  - id: t/west
    endpoints: [{ provider: az2, model: gpt4o-west, pricing: ${PRICING} }]
  - id: t/byok
    endpoints: [{ provider: azbyok, model: gpt4o-byok, pricing: ${PRICING} }]
  - id: t/embed
    output_modalities: [embeddings]
    endpoints: [{ provider: az, model: embed-prod, pricing: { prompt: "0.0000001" } }]
`,
  });
  key = (await createInferenceKey(gw)).key;
  h = {
    up,
    gw,
    key,
    openai: new OpenAI({ apiKey: key, baseURL: `${gw.url}/api/v1`, maxRetries: 0 }),
    anthropic: new (await import("@anthropic-ai/sdk")).default({ apiKey: key, baseURL: `${gw.url}/api`, maxRetries: 0 }),
    lastRequest: () => up.requests.at(-1)!,
    close: async () => {},
  };
});
afterAll(async () => {
  await gw.close();
  await up.stop();
});
beforeEach(() => {
  up.reset();
  logs.length = 0;
});

const INBOUNDS: Inbound[] = ["chat", "responses", "messages"];
/** t/both tries Azure, then OpenAI (equal prices would otherwise be ordered at random) */
const AZURE_FIRST = { provider: { order: ["az", "oc"] } };
const ask = async (inbound: Inbound, model: string) => {
  const res = await post(h, inbound, minimalBody(inbound, model, AZURE_FIRST));
  return { res, text: JSON.stringify(await res.json()) };
};
const isAzure = (r: RecordedRequest) => r.path.startsWith("/openai/deployments/");

describe("the call Azure receives", () => {
  for (const stream of [false, true]) {
    test(`${stream ? "stream" : "JSON"}: deployment path with the provider's api-version (default or its own), the key in api-key and never as a bearer token`, async () => {
      up.enqueue({ text: "a" }, { text: "b" });
      await call(h, "chat", stream, { model: "t/gpt", turns: [{ role: "user", text: "hi" }] });
      await call(h, "chat", stream, { model: "t/west", turns: [{ role: "user", text: "hi" }] });
      const [first, second] = up.requests;
      expect(first!.path).toBe("/openai/deployments/gpt4o-prod/chat/completions?api-version=2025-04-01-preview");
      expect(second!.path).toBe("/openai/deployments/gpt4o-west/chat/completions?api-version=2024-10-21");
      expect([first!.headers["api-key"], second!.headers["api-key"]]).toEqual(["azure-own-key-0123456789", "west-key-0123456789"]);
      expect([first!.headers.authorization, second!.headers.authorization]).toEqual([undefined, undefined]);
      expect(first!.headers.accept).toBe(stream ? "text/event-stream" : "application/json");
    });
  }

  test("a Chat client's answer passes through: Azure's content-filter results reach it, under the gateway's id and model", async () => {
    up.enqueue({ text: "hello", usage: { input: 12, output: 3 } });
    const res = await post(h, "chat", minimalBody("chat", "t/gpt"));
    const body = (await res.json()) as any;
    expect(body.id).toBe(res.headers.get("x-generation-id"));
    expect(body.model).toBe("t/gpt");
    expect(body.prompt_filter_results[0].content_filter_results.violence).toEqual({ filtered: false, severity: "safe" });
    expect(body.choices[0].content_filter_results.hate).toEqual({ filtered: false, severity: "safe" });
    expect(body.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 3, cost: cost(12, 3) });
  });
});

describe("a reasoning deployment", () => {
  // Azure's o-series refuse max_tokens by name, as OpenAI's do
  const refusesMaxTokens = (req: RecordedRequest) =>
    req.body.max_tokens !== undefined
      ? {
          status: 400,
          errorBody: {
            error: {
              message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
              type: "invalid_request_error",
              param: "max_tokens",
              code: "unsupported_parameter",
            },
          },
        }
      : { reasoning: { text: "hidden" }, text: "42", usage: { input: 20, output: 50, reasoning: 40 } };

  test("max_tokens refused once, then max_completion_tokens with reasoning_effort from every client; reasoning tokens counted and charged", async () => {
    up.setHandler(refusesMaxTokens);
    const first = await call(h, "chat", false, { model: "t/o3", effort: "high", maxTokens: 900, turns: [{ role: "user", text: "q" }] });
    expect(up.requests.map((r) => [r.body.max_tokens, r.body.max_completion_tokens, r.body.reasoning_effort])).toEqual([
      [900, undefined, "high"],
      [undefined, 900, "high"],
    ]);
    expect([first.text, first.usage]).toEqual(["42", { input: 20, output: 50, cached: 0, cacheWrite: 0, reasoning: 40, cost: cost(20, 50) }]);

    for (const [inbound, effort] of [
      ["responses", "low"],
      ["messages", "medium"],
    ] as const) {
      up.reset();
      up.setHandler(refusesMaxTokens);
      const spec = inbound === "messages" ? { thinkingBudget: 2048, maxTokens: 4000 } : { effort, maxTokens: 900 };
      const a = await call(h, inbound, true, { model: "t/o3", ...spec, turns: [{ role: "user", text: "q" }] });
      // the endpoint is remembered: straight to max_completion_tokens
      expect(up.requests.map((r) => [r.body.max_tokens, r.body.max_completion_tokens, r.body.reasoning_effort])).toEqual([[undefined, spec.maxTokens, effort]]);
      expect([a.text, a.usage.reasoning, a.usage.cost]).toEqual(["42", 40, cost(20, 50)]);
    }
  });
});

describe("the content filter", () => {
  for (const inbound of INBOUNDS) {
    test(`${inbound}: a prompt it flags is a 400 naming the content filter and its categories; no other provider is tried`, async () => {
      up.enqueue({ status: 400, errorBody: azureContentFilterError(["violence", "jailbreak"]) });
      const res = await post(h, inbound, minimalBody(inbound, "t/both", AZURE_FIRST));
      expect(res.status).toBe(400);
      const body = (await res.json()) as any;
      const message = body.error.message as string;
      expect(message).toStartWith(
        "Provider az rejected the request: Azure OpenAI's content filter refused the prompt (jailbreak, violence): The response was filtered",
      );
      if (inbound !== "messages") expect(body.error.metadata.raw.error.code).toBe("content_filter");
      expect(up.requests.length).toBe(1);
      const gen = await fetchGeneration(h, res.headers.get("x-generation-id")!);
      expect(gen).toMatchObject({ finish_reason: "error", total_cost: 0 });
    });

    for (const stream of [false, true]) {
      test(`${inbound} ${stream ? "stream" : "JSON"}: an answer it stopped ends as content_filter in the client's terms, charged for what was made`, async () => {
        up.enqueue({ text: ["Part", "ial"], finish: "content_filter", usage: { input: 9, output: 4 } });
        const a = await call(h, inbound, stream, { model: "t/gpt", turns: [{ role: "user", text: "q" }] });
        expect(a.text).toBe("Partial");
        expect(a.finish).toBe({ chat: "content_filter", responses: "incomplete:content_filter", messages: "refusal" }[inbound]);
        expect(a.usage.cost).toBe(cost(9, 4));
      });
    }
  }
});

describe("rate limits, failover and a rejected key", () => {
  test("a 429 with retry-after-ms falls over to the next provider, and holds Azure back for that long", async () => {
    up.enqueue({ status: 429, headers: { "retry-after": "1", "retry-after-ms": "400" } }, { text: "from openai" }, { text: "again" });
    const { res, text } = await ask("chat", "t/both");
    expect([res.status, text]).toEqual([200, expect.stringContaining("from openai")]);
    expect(up.requests.map((r) => (isAzure(r) ? "az" : "oc"))).toEqual(["az", "oc"]);
    // held back (its 400 ms, not Retry-After's whole second): the next request goes to the other provider first
    await ask("chat", "t/both");
    expect(isAzure(up.requests[2]!)).toBe(false);
    await Bun.sleep(450);
    up.enqueue({ text: "azure again" });
    expect((await ask("chat", "t/both")).text).toContain("azure again");
    expect(isAzure(up.requests[3]!)).toBe(true);
  });

  test("Azure's 429 alone is a 429 to the client, Retry-After from retry-after-ms in whole seconds", async () => {
    up.enqueue({ status: 429, headers: { "retry-after-ms": "1200" } });
    const res = await post(h, "chat", minimalBody("chat", "t/gpt"));
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("2");
    expect(((await res.json()) as any).error.message).toContain("Rate limited by az: Requests to the ChatCompletions_Create Operation");
    await Bun.sleep(1250);
  });

  test("a 5xx falls over to the next provider", async () => {
    up.enqueue({ status: 500 }, { text: "served" });
    const res = await post(h, "messages", minimalBody("messages", "t/both", { stream: true, ...AZURE_FIRST }));
    expect(res.status).toBe(200);
    await res.text();
    const gen = await fetchGeneration(h, res.headers.get("x-generation-id")!);
    expect(gen.provider_name).toBe("oc");
    expect(gen.provider_responses.map((r: any) => [r.provider_name, r.status])).toEqual([
      ["az", 500],
      ["oc", 200],
    ]);
  });

  test("a rejected key (401) falls over; one warn line names the provider and carries no key", async () => {
    up.enqueue({ status: 401 }, { text: "served" });
    expect((await ask("responses", "t/both")).text).toContain("served");
    const warned = logs.filter((l) => l.msg === "upstream failed");
    expect(warned).toEqual([
      expect.objectContaining({ level: "warn", provider: "az", status: 401, error: expect.stringContaining("Access denied due to invalid subscription key") }),
    ]);
    expect(JSON.stringify(logs)).not.toContain("azure-own-key");
  });
});

describe("embeddings on a deployment", () => {
  test("/embeddings reaches the deployment's embeddings with the api-key; vectors and cost come back", async () => {
    up.enqueue({ embedding: [[0.5, 0.25]], usage: { input: 7, output: 0 } });
    const r = await h.openai.embeddings.create({ model: "t/embed", input: "hello", encoding_format: "float" });
    expect(up.requests[0]!.path).toBe("/openai/deployments/embed-prod/embeddings?api-version=2025-04-01-preview");
    expect(up.requests[0]!.headers["api-key"]).toBe("azure-own-key-0123456789");
    expect(r.data[0]!.embedding).toEqual([0.5, 0.25]);
    expect((r.usage as any).cost).toBe((7 * 100) / 1e9);
  });
});

describe("OpenRouter's SDK reads an Azure answer passed through", () => {
  const client = () => new OpenRouter({ apiKey: key, serverURL: `${gw.url}/api/v1`, retryConfig: { strategy: "none" } });

  test("JSON", async () => {
    up.enqueue({ text: "Hi there", usage: { input: 5, output: 2 } });
    const r = (await client().chat.send({ chatRequest: { model: "t/gpt", messages: [{ role: "user", content: "hi" }] } })) as any;
    expect(r.choices[0].message.content).toBe("Hi there");
    expect(r.usage.cost).toBe(cost(5, 2));
  });

  test("stream: every chunk validates, the text reassembles, the last carries the cost", async () => {
    up.enqueue({ text: ["Hi", " there"], usage: { input: 5, output: 2 } });
    const stream = (await client().chat.send({
      chatRequest: { model: "t/gpt", messages: [{ role: "user", content: "hi" }], stream: true },
    })) as AsyncIterable<any>;
    const chunks: any[] = [];
    for await (const c of stream) chunks.push(c);
    expect(chunks[0].choices[0].delta.role).toBe("assistant");
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? "").join("")).toBe("Hi there");
    expect(chunks.at(-1).usage.cost).toBe(cost(5, 2));
  });
});

describe("BYOK: an Azure key", () => {
  let n = 0;
  /** a workspace with the given BYOK credentials, and an inference key of it */
  async function workspaceWith(...credentials: Array<Record<string, unknown>>): Promise<string> {
    n += 1;
    const ws = (await (await gw.api("/api/v1/workspaces", { method: "POST", json: { name: `Azure ${n}`, slug: `azure-${n}` } })).json()) as any;
    for (const c of credentials) expect((await gw.api("/api/v1/byok", { method: "POST", json: { workspace_id: ws.data.id, ...c } })).status).toBe(201);
    return (await createInferenceKey(gw, { workspace_id: ws.data.id })).key;
  }
  const send = (byokKey: string, model: string) =>
    gw.api("/api/v1/chat/completions", { method: "POST", key: byokKey, json: { model, messages: [{ role: "user", content: "hi" }] } });

  test("serves a provider that has no key of its own, sent as api-key; stored masked; is_byok and no charge against the gateway's prices", async () => {
    const inference = await workspaceWith({ provider: "azbyok", key: "4f1c0a9e7b2d4c6e8a0b1c2d3e4f5a6b" });
    const listed = (await (await gw.api("/api/v1/byok?provider=azbyok")).json()) as any;
    expect(listed.data.map((c: any) => c.label)).toContain("4f1c...5a6b");
    expect(JSON.stringify(listed)).not.toContain("4f1c0a9e7b2d4c6e8a0b1c2d3e4f5a6b");
    up.enqueue({ text: "mine", usage: { input: 10, output: 5 } });
    const res = await send(inference, "t/byok");
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.choices[0].message.content).toBe("mine");
    expect(body.usage.is_byok).toBe(true);
    expect(up.requests[0]!.path).toBe("/openai/deployments/gpt4o-byok/chat/completions?api-version=2025-04-01-preview");
    expect(up.requests[0]!.headers["api-key"]).toBe("4f1c0a9e7b2d4c6e8a0b1c2d3e4f5a6b");
  });

  test("replaces the provider's key; when Azure rejects it (401) the provider's own key serves", async () => {
    const inference = await workspaceWith({ provider: "az", key: "rejected-azure-key-000000000000" });
    up.enqueue({ status: 401 }, { text: "own key" });
    const res = await send(inference, "t/gpt");
    expect(((await res.json()) as any).choices[0].message.content).toBe("own key");
    expect(up.requests.map((r) => r.headers["api-key"])).toEqual(["rejected-azure-key-000000000000", "azure-own-key-0123456789"]);
  });
});
