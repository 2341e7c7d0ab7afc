// POST /api/v1/rerank through @openrouter/sdk 1.3.19.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createInferenceKey } from "../../support/gateway";
import { errorOf, generationOf, keyUsage, type MediaHarness, startMediaHarness, upstreamCalls } from "./setup";

let h: MediaHarness;
beforeAll(async () => {
  h = await startMediaHarness();
});
afterAll(() => h.close());
beforeEach(() => {
  for (const m of [h.rerankA, h.rerankB]) {
    m.bodies.length = 0;
    m.calls.length = 0;
    m.searchUnits = 1;
  }
});

const DOCS = [
  "Carson City is the capital of Nevada.",
  "Saipan is the capital of the Northern Mariana Islands.",
  "Washington, D.C. is the capital of the United States.",
];
const rerank = (json: Record<string, unknown>, key = h.key) =>
  h.gw.api("/api/v1/rerank", { method: "POST", key, json: { model: "cohere/rerank-v3.5", query: "capital of the United States", documents: DOCS, ...json } });

describe("rerank", () => {
  test("rerank.rerank: the exact upstream body, the upstream's order with each document's text, search units × the price = usage.cost = total_cost = the rise of the key's usage", async () => {
    const before = await keyUsage(h.gw, h.key);
    const res = await h.sdk.rerank.rerank({
      requestBody: {
        model: "cohere/rerank-v3.5",
        query: "capital of the United States",
        documents: [DOCS[0]!, { text: DOCS[1]! }, DOCS[2]!],
        topN: 2,
        user: "u",
        sessionId: "s",
      },
    });
    expect(h.rerankA.bodies).toEqual([{ model: "rerank-v3.5", query: "capital of the United States", documents: DOCS, top_n: 2 }]);
    const body = res as Exclude<typeof res, string>;
    expect(body).toEqual({
      id: body.id,
      model: "cohere/rerank-v3.5",
      provider: "Rerank Cloud A",
      results: [
        { index: 2, relevanceScore: 0.9, document: { text: DOCS[2]! } },
        { index: 1, relevanceScore: 0.8, document: { text: DOCS[1]! } },
      ],
      usage: { searchUnits: 1, cost: 0.002 },
    });
    expect(body.id).toStartWith("gen-");
    expect(await keyUsage(h.gw, h.key)).toBeCloseTo(before + 0.002, 12);
    const g = await generationOf(h.gw, h.key, body.id!);
    expect([g.api_type, g.model, g.provider_name, g.total_cost, g.usage, g.upstream_id]).toEqual([
      "rerank",
      "cohere/rerank-v3.5",
      "rerank-a",
      0.002,
      0.002,
      "07734bd2-2473-4f07-94e1-0d9f0e6843cf",
    ]);
  });

  test("search units as the upstream billed them, else one per hundred documents; top_n only when given", async () => {
    h.rerankA.searchUnits = 2;
    const two = (await (await rerank({})).json()) as { usage: unknown; results: unknown[] };
    expect([two.usage, two.results.length]).toEqual([{ search_units: 2, cost: 0.004 }, 3]);
    expect(h.rerankA.bodies.at(-1)).toEqual({ model: "rerank-v3.5", query: "capital of the United States", documents: DOCS });
    h.rerankA.searchUnits = null;
    expect(((await (await rerank({})).json()) as { usage: unknown }).usage).toEqual({ search_units: 1, cost: 0.002 });
  });

  test("a 429 falls over to the next endpoint, priced per thousand documents there; more documents than an endpoint takes skip it", async () => {
    h.rerankA.fail("/v2/rerank", { status: 429, headers: { "retry-after": "3" } });
    const res = await rerank({});
    const body = (await res.json()) as { provider: string; usage: unknown };
    // 3 documents × $0.05 / 1000
    expect([body.provider, body.usage]).toEqual(["Rerank Cloud B", { search_units: 1, cost: 0.00015 }]);
    const g = await generationOf(h.gw, h.key, res.headers.get("x-generation-id")!);
    expect(g.provider_responses.map((a: any) => [a.provider_name, a.status])).toEqual([
      ["rerank-a", 429],
      ["rerank-b", 200],
    ]);
    const six = await rerank({ documents: ["a", "b", "c", "d", "e", "f"] });
    expect(((await six.json()) as { provider: string }).provider).toBe("Rerank Cloud B");
    expect(h.rerankA.bodies.length).toBe(0);
  });
});

describe("validation, money and auth", () => {
  const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    ["an empty query", { query: " " }, { field: "query" }],
    ["no documents", { documents: [] }, { field: "documents" }],
    ["more documents than any endpoint takes", { documents: Array.from({ length: 1001 }, (_, i) => `d${i}`) }, { field: "documents", maximum: 1000 }],
    ["an image document", { documents: ["a", { image: "https://example.com/a.png" }] }, { field: "documents[1].image", allowed: [] }],
    ["top_n below 1", { top_n: 0 }, { field: "top_n", minimum: 1 }],
  ];
  for (const [what, json, metadata] of cases)
    test(`400 for ${what}, naming ${metadata.field}; nothing upstream`, async () => {
      const calls = upstreamCalls(h);
      const err = await errorOf(await rerank(json));
      expect([err.status, err.error.metadata]).toEqual([400, metadata]);
      expect(upstreamCalls(h)).toBe(calls);
    });

  test("404 for a model of another kind; 402 when no candidate's price fits the key's limit; 401 and 403", async () => {
    expect((await rerank({ model: "openai/gpt-image-1" })).status).toBe(404);
    const { key } = await createInferenceKey(h.gw, { name: "tight", limit: 0.0001 });
    const calls = upstreamCalls(h);
    expect((await rerank({}, key)).status).toBe(402);
    expect(upstreamCalls(h)).toBe(calls);
    expect((await rerank({}, null as never)).status).toBe(401);
    expect((await h.gw.api("/api/v1/rerank", { method: "POST", json: { query: 1 } })).status).toBe(403);
  });
});
