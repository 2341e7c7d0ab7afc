import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { createInferenceKey, startTestGateway, type TestGateway } from "../../support/gateway";
import { type MockUpstream, startMockUpstream } from "../../support/mock-upstream";
import { CreateEmbeddingsResponseBody, violations } from "./contract-schemas";

let gw: TestGateway;
let pa: MockUpstream;
let pb: MockUpstream;
let key: string;

// 1e-7 USD per token on pa, 2e-7 on pb
const yaml = (a: string, b: string) => `
catalog: { default: false }
providers:
  - { slug: pa, api: openai-chat, base_url: "${a}", api_key: ka }
  - { slug: pb, api: openai-chat, base_url: "${b}", api_key: kb }
  - { slug: an, api: anthropic-messages, base_url: "${a}", api_key: kc }
models:
  - id: acme/embed
    output_modalities: [embeddings]
    endpoints:
      - { provider: pa, model: emb-a, pricing: { prompt: "0.0000001" } }
      - { provider: pb, model: emb-b, pricing: { prompt: "0.0000002" } }
  - id: acme/chat
    endpoints: [{ provider: pa, model: chat-a }]
  - id: acme/anth-embed
    output_modalities: [embeddings]
    endpoints: [{ provider: an, model: nope }]
routing: { circuit_failures: 100 }
`;

const DEFAULT_VECTORS = [
  [0.5, 0.25, -0.125],
  [1.5, 0.25, -0.125],
];

beforeAll(async () => {
  [pa, pb] = await Promise.all([startMockUpstream(), startMockUpstream()]);
  gw = await startTestGateway({ yaml: yaml(pa.url, pb.url) });
  key = (await createInferenceKey(gw)).key;
});
afterAll(async () => {
  await gw.close();
  await Promise.all([pa.stop(), pb.stop()]);
});
beforeEach(() => {
  pa.reset();
  pb.reset();
  // pinned: the price-weighted pick is the first (cheaper) endpoint, pa
  gw.ctx.router.random = () => 0;
});

const embed = (body: Record<string, unknown>, k: string | null = key) => gw.api("/api/v1/embeddings", { method: "POST", key: k, json: body });
const generation = async (id: string) => ((await (await gw.api(`/api/v1/generation?id=${id}`, { key })).json()) as any).data;

describe("POST /embeddings", () => {
  test("float vectors, usage and cost; the upstream gets an OpenAI embeddings body", async () => {
    pa.enqueue({ usage: { input: 12, output: 0 } });
    const res = await embed({ model: "acme/embed", input: ["hello", "world"], encoding_format: "float", dimensions: 3, user: "u-1" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(violations(CreateEmbeddingsResponseBody, body)).toEqual([]);
    const id = res.headers.get("x-generation-id")!;
    expect(body).toEqual({
      id,
      object: "list",
      data: DEFAULT_VECTORS.map((embedding, index) => ({ object: "embedding", embedding, index })),
      model: "acme/embed",
      usage: {
        prompt_tokens: 12,
        total_tokens: 12,
        cost: 0.0000012,
        is_byok: false,
        cost_details: { upstream_inference_cost: null, upstream_inference_prompt_cost: 0.0000012, upstream_inference_completions_cost: 0 },
      },
    });
    expect(pa.requests.map((r) => [r.path, r.body])).toEqual([["/v1/embeddings", { model: "emb-a", input: ["hello", "world"], dimensions: 3, user: "u-1" }]]);
    expect(pa.requests[0]!.headers.authorization).toBe("Bearer ka");

    const g = await generation(id);
    expect(g).toMatchObject({
      id,
      api_type: "embeddings",
      model: "acme/embed",
      provider_name: "pa",
      streamed: false,
      cancelled: false,
      tokens_prompt: 12,
      tokens_completion: 0,
      total_cost: 0.0000012,
      external_user: "u-1",
    });
  });

  test("base64 vectors are little-endian float32 of the same values", async () => {
    const res = await embed({ model: "acme/embed", input: "one", encoding_format: "base64" });
    const body = (await res.json()) as any;
    expect(violations(CreateEmbeddingsResponseBody, body)).toEqual([]);
    const b64: string = body.data[0].embedding;
    const buf = Buffer.from(b64, "base64");
    expect([0, 1, 2].map((i) => buf.readFloatLE(i * 4))).toEqual(DEFAULT_VECTORS[0]!);
    expect(pa.requests[0]!.body.encoding_format).toBeUndefined();
  });

  test("an upstream that answers in base64 still gives float to a float caller", async () => {
    pa.setHandler(() => ({ embedding: [[0.75, -2]] }));
    const res = await gw.api("/api/v1/embeddings", { method: "POST", key, json: { model: "acme/embed", input: "x" } });
    expect(((await res.json()) as any).data[0].embedding).toEqual([0.75, -2]);
  });

  test("the openai SDK round-trips (it asks for base64 and decodes)", async () => {
    const client = new OpenAI({ apiKey: key, baseURL: `${gw.url}/api/v1`, maxRetries: 0 });
    const out = await client.embeddings.create({ model: "acme/embed", input: ["a", "b"] });
    expect(out.data.map((d) => d.embedding)).toEqual(DEFAULT_VECTORS);
    expect(out.model).toBe("acme/embed");
    expect(out.usage).toMatchObject({ prompt_tokens: 10, total_tokens: 10 });
  });

  test("a failing endpoint falls back to the next; the record lists both attempts", async () => {
    pa.enqueue({ status: 503 });
    const res = await embed({ model: "acme/embed", input: "x" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.usage.cost).toBe(0.000002); // pb's price, 10 tokens
    expect(pb.requests[0]!.body.model).toBe("emb-b");
    const g = await generation(body.id);
    expect(g.provider_name).toBe("pb");
    expect(g.provider_responses.map((r: any) => [r.provider_name, r.status])).toEqual([
      ["pa", 503],
      ["pb", 200],
    ]);
  });

  test("a request error is not retried elsewhere and is recorded", async () => {
    pa.enqueue({ status: 400, errorBody: { error: { message: "dimensions too large" } } });
    const res = await embed({ model: "acme/embed", input: "x", dimensions: 99999 });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.message).toBe("Provider pa rejected the request: dimensions too large");
    expect(pb.requests.length).toBe(0);
    const g = await generation(res.headers.get("x-generation-id")!);
    expect(g).toMatchObject({ api_type: "embeddings", finish_reason: "error", total_cost: 0 });
  });

  test("spend is charged to the key", async () => {
    const fresh = await createInferenceKey(gw, { name: "embed spend" });
    pa.enqueue({ usage: { input: 1000, output: 0 } }, { usage: { input: 500, output: 0 } });
    for (let i = 0; i < 2; i++) expect((await embed({ model: "acme/embed", input: "x" }, fresh.key)).status).toBe(200);
    const me = (await (await gw.api("/api/v1/key", { key: fresh.key })).json()) as any;
    expect(me.data.usage).toBe(0.00015);
  });

  test("a key whose limit cannot cover the input gets 402 before any upstream call", async () => {
    const poor = await createInferenceKey(gw, { name: "poor", limit: 0.0000001 });
    const res = await embed({ model: "acme/embed", input: "x".repeat(5000) }, poor.key);
    expect(res.status).toBe(402);
    expect(pa.requests.length + pb.requests.length).toBe(0);
  });

  test("pre-tokenised input passes through", async () => {
    const res = await embed({
      model: "acme/embed",
      input: [
        [1, 2, 3],
        [4, 5],
      ],
    });
    expect(res.status).toBe(200);
    expect(pa.requests[0]!.body.input).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  test("refusals: unknown model 404, chat model 400, only Anthropic endpoints 503, management key 403, no key 401", async () => {
    const cases: Array<[Record<string, unknown>, string | null, number]> = [
      [{ model: "acme/none", input: "x" }, key, 404],
      [{ model: "acme/chat", input: "x" }, key, 400],
      [{ model: "acme/anth-embed", input: "x" }, key, 503],
      [{ model: "acme/embed", input: "x" }, gw.adminKey, 403],
      [{ model: "acme/embed", input: "x" }, null, 401],
      [{ model: "acme/embed", input: "x", encoding_format: "hex" }, key, 400],
    ];
    for (const [body, k, status] of cases) expect([body.model, (await embed(body, k)).status]).toEqual([body.model, status]);
    expect(pa.requests.length + pb.requests.length).toBe(0);
  });
});

describe("POST /embeddings: empty input", () => {
  const keyUsage = async () => ((await (await gw.api("/api/v1/key", { key })).json()) as { data: { usage: number } }).data.usage;
  // OpenAI's input "cannot be an empty string"; an empty list, token array or content list is as empty
  const EMPTY: Array<[unknown, string]> = [
    ["", "input"],
    [[], "input"],
    [[""], "input[0]"],
    [["a", ""], "input[1]"],
    [[[]], "input[0]"],
    [[[1, 2], []], "input[1]"],
    [[{ content: [] }], "input[0].content"],
  ];
  for (const [input, field] of EMPTY) {
    test(`${JSON.stringify(input)} is a 400 naming ${field}; nothing is sent upstream or charged`, async () => {
      const before = await keyUsage();
      const res = await embed({ model: "acme/embed", input });
      const body = (await res.json()) as { error: { code: number; message: string; metadata: { field: string } } };
      expect([res.status, body.error.code, body.error.metadata.field]).toEqual([400, 400, field]);
      expect(body.error.message).toStartWith(`Invalid field '${field}': expected `);
      expect(pa.requests.length + pb.requests.length).toBe(0);
      expect(await keyUsage()).toBe(before);
    });
  }
});
