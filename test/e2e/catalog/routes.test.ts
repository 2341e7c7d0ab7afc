import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { TSchema } from "@sinclair/typebox";
import { type GatewayAndUpstream, startGatewayAndUpstream } from "../../support/gateway-and-upstream";
import * as S from "./contract-schemas";
import { parseXml } from "./xml-check";

let h: GatewayAndUpstream;

// list_unavailable: these tests check the listing's filters and shapes over the whole default catalog
const yaml = (url: string) => `
catalog: { list_unavailable: true }
providers:
  - { slug: mock, name: Mock Cloud, api: openai-chat, base_url: "${url}", api_key: k, zdr: true, data_collection: deny }
  - { slug: byok-only, api: openai-chat, base_url: "${url}" }
models:
  - id: acme/two
    name: "Acme: Two"
    description: "Two endpoints & <one> model"
    context_length: 64000
    input_modalities: [text, image]
    endpoints:
      - { provider: mock, model: two-a, max_completion_tokens: 4096, quantization: fp8, supported_parameters: [max_tokens, tools, tool_choice], pricing: { prompt: "0.000001", completion: "0.000002", input_cache_read: "0.0000001" } }
      - { provider: byok-only, model: two-b, pricing: { prompt: "0.000003", completion: "0.000004" } }
  - id: acme/embed
    output_modalities: [embeddings]
    endpoints: [{ provider: mock, model: emb, pricing: { prompt: "0.0000001" } }]
`;

beforeAll(async () => {
  h = await startGatewayAndUpstream({ yaml, env: { GROQ_API_KEY: "gsk-test" } });
});
afterAll(() => h.close());

async function get(path: string, schema: TSchema, k: string | null = null): Promise<any> {
  const res = await h.gw.api(path, { key: k });
  expect(res.status).toBe(200);
  const body = await res.json();
  expect(S.violations(schema, body)).toEqual([]);
  return body;
}

describe("catalog routes match the contract types", () => {
  test("every route, with its query variants", async () => {
    const lists = [
      "/api/v1/models",
      "/api/v1/models?output_modalities=all",
      "/api/v1/models?output_modalities=embeddings,text",
      "/api/v1/models?supported_parameters=tools,tool_choice",
      "/api/v1/models?category=programming",
      "/api/v1/models?limit=5&offset=3",
      "/api/v1/embeddings/models",
    ];
    for (const path of lists) await get(path, S.ModelsListResponse);
    await get("/api/v1/models/user", S.ModelsListResponse, h.key);
    await get("/api/v1/models/count", S.ModelsCountResponse);
    await get("/api/v1/models/count?output_modalities=all", S.ModelsCountResponse);
    await get("/api/v1/model/acme/two", S.ModelResponse);
    await get("/api/v1/model/openai/gpt-5", S.ModelResponse);
    await get("/api/v1/models/acme/two/endpoints", S.ListEndpointsResponse);
    await get("/api/v1/models/openai/gpt-oss-120b/endpoints", S.ListEndpointsResponse);
    await get("/api/v1/endpoints/zdr", S.ListEndpointsZdrResponse);
    await get("/api/v1/providers", S.ListProvidersResponse);
  });

  test("every model of the whole catalog and all their endpoints conform", async () => {
    const all = await get("/api/v1/models?output_modalities=all&limit=1000", S.ModelsListResponse);
    expect(all.total_count).toBe(h.gw.ctx.catalog.models().length);
    expect(all.data.length).toBe(all.total_count);
    for (const m of all.data) {
      expect(m.links.details).toBe(`/api/v1/models/${m.id}/endpoints`);
      const listing = await get(m.links.details, S.ListEndpointsResponse);
      expect(listing.data.id).toBe(m.id);
      expect(listing.data.endpoints.length).toBe(h.gw.ctx.catalog.getModel(m.id)!.endpoints.length);
    }
  });
});

describe("models", () => {
  test("the model record of a gateway.yaml model", async () => {
    const { data } = await get("/api/v1/model/acme/two", S.ModelResponse);
    expect(data).toEqual({
      id: "acme/two",
      canonical_slug: "acme/two",
      hugging_face_id: null,
      name: "Acme: Two",
      created: expect.any(Number),
      description: "Two endpoints & <one> model",
      context_length: 64000,
      architecture: { input_modalities: ["text", "image"], output_modalities: ["text"], modality: "text+image->text", tokenizer: "Other", instruct_type: null },
      pricing: { prompt: "0.000001", completion: "0.000002", input_cache_read: "0.0000001" },
      top_provider: { context_length: 64000, max_completion_tokens: 4096, is_moderated: false },
      per_request_limits: null,
      supported_parameters: ["max_tokens", "tools", "tool_choice", "temperature", "top_p", "stop", "response_format", "seed"],
      supported_voices: null,
      default_parameters: null,
      knowledge_cutoff: null,
      expiration_date: null,
      links: { details: "/api/v1/models/acme/two/endpoints" },
    });
  });

  test("output_modalities defaults to text; embeddings and all widen it; count agrees", async () => {
    const text = await get("/api/v1/models?limit=1000", S.ModelsListResponse);
    expect(text.data.every((m: any) => m.architecture.output_modalities.includes("text"))).toBe(true);
    expect(text.data.some((m: any) => m.id === "acme/embed")).toBe(false);
    const count = await get("/api/v1/models/count", S.ModelsCountResponse);
    expect(count.data.count).toBe(text.total_count);
    const emb = await get("/api/v1/models?output_modalities=embeddings", S.ModelsListResponse);
    expect(emb.data.map((m: any) => m.id)).toContain("acme/embed");
    expect(emb.data.every((m: any) => m.architecture.output_modalities.includes("embeddings"))).toBe(true);
    const all = await get("/api/v1/models/count?output_modalities=all", S.ModelsCountResponse);
    expect(all.data.count).toBe(h.gw.ctx.catalog.models().length);
    const models = await get("/api/v1/embeddings/models", S.ModelsListResponse);
    expect(models.data.map((m: any) => m.id)).toEqual(emb.data.map((m: any) => m.id));
  });

  test("supported_parameters keeps models that support every one; category narrows by kind", async () => {
    const res = await get("/api/v1/models?supported_parameters=tools,reasoning&limit=1000", S.ModelsListResponse);
    expect(res.total_count).toBeGreaterThan(10);
    for (const m of res.data) expect(m.supported_parameters).toEqual(expect.arrayContaining(["tools", "reasoning"]));
    const none = await get("/api/v1/models?supported_parameters=no_such_param", S.ModelsListResponse);
    expect(none).toEqual({ data: [], links: { next: null }, total_count: 0 });
    const code = await get("/api/v1/models?category=programming&limit=1000", S.ModelsListResponse);
    expect(code.total_count).toBeGreaterThan(0);
    for (const m of code.data) expect(`${m.id} ${m.name}`).toMatch(/cod|devstral|program|swe/i);
  });

  test("pagination: offset/limit with links.next", async () => {
    const first = await get("/api/v1/models?limit=5", S.ModelsListResponse);
    expect(first.data.length).toBe(5);
    expect(first.links.next).toBe("/api/v1/models?limit=5&offset=5");
    const second = await get(first.links.next, S.ModelsListResponse);
    const all = await get("/api/v1/models?limit=10", S.ModelsListResponse);
    expect([...first.data, ...second.data].map((m: any) => m.id)).toEqual(all.data.map((m: any) => m.id));
    const last = await get(`/api/v1/models?offset=${all.total_count - 1}&limit=5`, S.ModelsListResponse);
    expect(last.data.length).toBe(1);
    expect(last.links.next).toBeNull();
  });

  test("unknown models are 404 on both model routes", async () => {
    for (const path of ["/api/v1/model/nope/missing", "/api/v1/models/nope/missing/endpoints"]) {
      const res = await h.gw.api(path, { key: null });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: { code: 404, message: "Model not found: nope/missing" } });
    }
  });

  test("providers: default catalog and gateway.yaml", async () => {
    const { data } = await get("/api/v1/providers", S.ListProvidersResponse);
    const slugs = data.map((p: any) => p.slug);
    expect(slugs).toEqual([...slugs].sort());
    expect(slugs).toEqual(expect.arrayContaining(["anthropic", "byok-only", "groq", "mock", "openai", "openrouter"]));
    expect(data.find((p: any) => p.slug === "mock")).toEqual({
      name: "Mock Cloud",
      slug: "mock",
      privacy_policy_url: null,
      terms_of_service_url: null,
      status_page_url: null,
    });
  });
});

describe("endpoints", () => {
  test("one entry per endpoint, prices and limits from the catalog, no traffic yet", async () => {
    const { data } = await get("/api/v1/models/acme/two/endpoints", S.ListEndpointsResponse);
    expect(data.architecture).toEqual({
      input_modalities: ["text", "image"],
      output_modalities: ["text"],
      modality: "text+image->text",
      tokenizer: "Other",
      instruct_type: null,
    });
    expect(data.endpoints).toEqual([
      {
        name: "Mock Cloud | acme/two",
        model_id: "acme/two",
        model_name: "Acme: Two",
        context_length: 64000,
        pricing: { prompt: "0.000001", completion: "0.000002", input_cache_read: "0.0000001" },
        provider_name: "Mock Cloud",
        tag: "mock/fp8",
        quantization: "fp8",
        max_completion_tokens: 4096,
        max_prompt_tokens: null,
        supported_parameters: ["max_tokens", "tools", "tool_choice"],
        status: 0,
        uptime_last_5m: null,
        uptime_last_30m: null,
        uptime_last_1d: null,
        supports_implicit_caching: true,
        supports_tool_choice: { auto: true, none: true, required: true, function: true },
        latency_last_30m: null,
        throughput_last_30m: null,
      },
      {
        name: "byok-only | acme/two",
        model_id: "acme/two",
        model_name: "Acme: Two",
        context_length: 64000,
        pricing: { prompt: "0.000003", completion: "0.000004" },
        provider_name: "byok-only",
        tag: "byok-only",
        quantization: null,
        max_completion_tokens: null,
        max_prompt_tokens: null,
        supported_parameters: ["max_tokens", "temperature", "top_p", "stop", "tools", "tool_choice", "response_format", "seed"],
        status: 0,
        uptime_last_5m: null,
        uptime_last_30m: null,
        uptime_last_1d: null,
        supports_implicit_caching: false,
        supports_tool_choice: { auto: true, none: true, required: true, function: true },
        latency_last_30m: null,
        throughput_last_30m: null,
      },
    ]);
  });

  test("a default model served by two providers lists both", async () => {
    const { data } = await get("/api/v1/models/openai/gpt-oss-120b/endpoints", S.ListEndpointsResponse);
    const names = data.endpoints.map((e: any) => e.provider_name);
    expect(names).toEqual(expect.arrayContaining(["Groq", "Cerebras"]));
  });

  test("zero-data-retention view lists only endpoints of zdr providers", async () => {
    const { data } = await get("/api/v1/endpoints/zdr", S.ListEndpointsZdrResponse);
    expect(data.map((e: any) => e.name).sort()).toEqual(["Mock Cloud | acme/embed", "Mock Cloud | acme/two"]);
  });
});

describe("models for the caller", () => {
  test("only what the workspace can use: credentials present, provider preferences applied", async () => {
    const res = await get("/api/v1/models/user", S.ModelsListResponse, h.key);
    const ids: string[] = res.data.map((m: any) => m.id);
    expect(res.total_count).toBe(ids.length);
    expect(ids).toContain("acme/two");
    expect(ids).toContain("openai/gpt-oss-120b"); // groq has a key
    expect(ids).not.toContain("anthropic/claude-sonnet-4"); // no anthropic key
    expect(ids).not.toContain("acme/embed"); // text by default
    for (const id of ids) {
      const slugs = h.gw.ctx.catalog.getModel(id)!.endpoints.map((e) => e.provider.slug);
      expect(slugs.some((s) => s === "mock" || s === "groq")).toBe(true);
    }
    // priced by the endpoint the caller can use (groq), not the first one in the catalog
    const oss = res.data.find((m: any) => m.id === "openai/gpt-oss-120b");
    const groq = h.gw.ctx.catalog.getModel("openai/gpt-oss-120b")!.endpoints.find((e) => e.provider.slug === "groq")!;
    expect(oss.pricing.prompt).toBe(groq.pricingStrings.prompt!);

    const ws = (await h.gw.ctx.store.workspaces.getDefault())!;
    await h.gw.ctx.store.workspaces.update(ws.id, { settings: { ...ws.settings, provider: { ignore: ["groq"] } } }, Date.now());
    try {
      const narrowed = await get("/api/v1/models/user?output_modalities=all", S.ModelsListResponse, h.key);
      expect(narrowed.data.map((m: any) => m.id).sort()).toEqual(["acme/embed", "acme/two"]);
    } finally {
      await h.gw.ctx.store.workspaces.update(ws.id, { settings: ws.settings }, Date.now());
    }
  });

  test("needs a key", async () => {
    const res = await h.gw.api("/api/v1/models/user", { key: null });
    expect(res.status).toBe(401);
  });
});

describe("RSS", () => {
  test("use_rss=true is a valid RSS 2.0 feed with one item per model", async () => {
    const res = await h.gw.api("/api/v1/models?use_rss=true", { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
    const rss = parseXml(await res.text());
    expect(rss.name).toBe("rss");
    expect(rss.attrs.version).toBe("2.0");
    expect(rss.children.map((c) => c.name)).toEqual(["channel"]);
    const channel = rss.children[0]!;
    for (const required of ["title", "link", "description"]) expect(channel.children.some((c) => c.name === required)).toBe(true);
    const items = channel.children.filter((c) => c.name === "item");
    const count = (await get("/api/v1/models/count", S.ModelsCountResponse)).data.count;
    expect(items.length).toBe(count);
    const two = items.find((i) => i.children.find((c) => c.name === "guid")?.text === "acme/two")!;
    const field = (name: string) => two.children.find((c) => c.name === name)!.text;
    expect(field("title")).toBe("Acme: Two");
    expect(field("description")).toBe("Two endpoints & <one> model");
    expect(field("link")).toBe(`${h.gw.url}/api/v1/model/acme/two`);
    expect(new Date(field("pubDate")).toUTCString()).toBe(field("pubDate"));
    for (const item of items) expect(item.children.map((c) => c.name)).toEqual(["title", "link", "guid", "description", "pubDate"]);
  });

  test("use_rss_chat_links switches item links; filters apply to the feed", async () => {
    const res = await h.gw.api("/api/v1/models?use_rss=true&use_rss_chat_links=true&output_modalities=embeddings", { key: null });
    const items = parseXml(await res.text()).children[0]!.children.filter((c) => c.name === "item");
    const links = items.map((i) => i.children.find((c) => c.name === "link")!.text);
    expect(links).toContain(`${h.gw.url}/chat?models=acme%2Fembed`);
    expect(items.length).toBe((await get("/api/v1/embeddings/models", S.ModelsListResponse)).total_count);
  });
});
