import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { allPages, type SdkHarness, startSdkHarness } from "./setup";

let h: SdkHarness;
beforeAll(async () => {
  h = await startSdkHarness();
});
afterAll(() => h.close());

const TEXT_MODELS = ["acme/anth", "acme/chat", "acme/resp", "acme/solo"];

describe("models via @openrouter/sdk", () => {
  test("list returns the text models with pricing, architecture and links", async () => {
    const page = await h.client.models.list();
    expect(page.result.data.map((m) => m.id).sort()).toEqual(TEXT_MODELS);
    expect(page.result.totalCount).toBe(4);
    expect(page.result.links.next).toBeNull();
    const chat = page.result.data.find((m) => m.id === "acme/chat")!;
    expect(chat.name).toBe("Acme: Chat");
    expect(chat.contextLength).toBe(128000);
    expect(chat.pricing).toMatchObject({ prompt: "0.000001", completion: "0.000002", inputCacheRead: "0.0000001" });
    expect(chat.architecture.inputModalities).toEqual(["text", "image"]);
    expect(chat.architecture.outputModalities).toEqual(["text"]);
    expect(chat.topProvider.maxCompletionTokens).toBe(4096);
    expect([...chat.supportedParameters].sort()).toEqual(["max_tokens", "reasoning", "temperature", "tool_choice", "tools"]);
  });

  test("list pages through every model; filters by output modality", async () => {
    const pages = await allPages(await h.client.models.list({ limit: 2 }));
    expect(pages.flatMap((p) => p.data.map((m) => m.id)).sort()).toEqual(TEXT_MODELS);
    const embeds = await h.client.models.list({ outputModalities: "embeddings" });
    expect(embeds.result.data.map((m) => m.id)).toEqual(["acme/embed"]);
    const ids = async (req: Parameters<typeof h.client.models.list>[0]) => (await h.client.models.list(req)).result.data.map((m) => m.id).sort();
    expect(await ids({ q: "resp" })).toEqual(["acme/resp"]);
    expect(await ids({ inputModalities: "image" })).toEqual(["acme/chat"]);
    expect(await ids({ providers: "mockanth" })).toEqual(["acme/anth"]);
    expect(await ids({ context: 100000 })).toEqual(["acme/anth", "acme/chat"]);
  });

  test("count and get", async () => {
    expect((await h.client.models.count()).data.count).toBe(4);
    expect((await h.client.models.count({ outputModalities: "embeddings" })).data.count).toBe(1);
    const got = await h.client.models.get({ author: "acme", slug: "resp" });
    expect(got.data.id).toBe("acme/resp");
    expect(got.data.name).toBe("Acme: Resp");
    expect(got.data.contextLength).toBe(64000);
    expect(got.data.canonicalSlug).toBe("acme/resp");
  });

  test("listForUser takes the bearer per call and leaves out models the caller cannot reach", async () => {
    // acme/solo's provider has no gateway key and no BYOK credential yet
    const page = await h.client.models.listForUser({ bearer: h.key });
    expect(page.result.data.map((m) => m.id).sort()).toEqual(["acme/anth", "acme/chat", "acme/resp"]);
    expect(page.result.totalCount).toBe(3);
  });
});

describe("endpoints and providers via @openrouter/sdk", () => {
  test("endpoints.list describes each endpoint of a model", async () => {
    const res = await h.client.endpoints.list({ author: "acme", slug: "chat" });
    expect(res.data.id).toBe("acme/chat");
    expect(res.data.name).toBe("Acme: Chat");
    expect(res.data.architecture.inputModalities).toEqual(["text", "image"]);
    expect(res.data.endpoints.length).toBe(1);
    const ep = res.data.endpoints[0]!;
    expect(String(ep.providerName)).toBe("Mock Cloud");
    expect(ep.tag).toBe("mock");
    expect(ep.contextLength).toBe(128000);
    expect(ep.maxCompletionTokens).toBe(4096);
    expect(ep.pricing).toMatchObject({ prompt: "0.000001", completion: "0.000002", inputCacheRead: "0.0000001" });
  });

  test("endpoints.listZdrEndpoints lists only zero-data-retention endpoints", async () => {
    const res = await h.client.endpoints.listZdrEndpoints();
    expect(res.data.map((e) => e.modelId).sort()).toEqual(["acme/chat", "acme/embed"]);
    expect(res.data.every((e) => e.tag === "mock")).toBe(true);
  });

  test("providers.list names every configured provider", async () => {
    const res = await h.client.providers.list();
    expect(res.data.map((p) => [p.slug, p.name]).sort()).toEqual([
      ["mock", "Mock Cloud"],
      ["mockanth", "Mock Anthropic"],
      ["mockresp", "Mock Responses"],
      ["solo", "Solo"],
    ]);
  });
});

describe("embeddings via @openrouter/sdk", () => {
  test("listModels returns the embeddings models", async () => {
    const page = await h.client.embeddings.listModels();
    expect(page.result.data.map((m) => m.id)).toEqual(["acme/embed"]);
    expect(page.result.data[0]!.architecture.outputModalities).toEqual(["embeddings"]);
    expect(page.result.totalCount).toBe(1);
  });

  test("generate returns the vectors, model and usage with cost", async () => {
    h.up.enqueue({ usage: { input: 6, output: 0 } });
    const res = await h.client.embeddings.generate({ requestBody: { model: "acme/embed", input: ["hello", "world"], encodingFormat: "float" } });
    if (typeof res === "string") throw new Error(`expected JSON, got text: ${res}`);
    expect(res.object).toBe("list");
    expect(res.model).toBe("acme/embed");
    expect(res.data.map((d) => [d.object, d.index])).toEqual([
      ["embedding", 0],
      ["embedding", 1],
    ]);
    expect(Array.isArray(res.data[0]!.embedding)).toBe(true);
    expect(res.usage?.promptTokens).toBe(6);
    expect(res.usage?.totalTokens).toBe(6);
    expect(res.usage?.cost).toBeCloseTo(6 * 1e-7, 12);
    expect(h.up.requests.at(-1)!.body).toMatchObject({ model: "emb-1", input: ["hello", "world"] });

    h.up.enqueue({ embedding: [[0.5, -2]], usage: { input: 1, output: 0 } });
    const b64 = await h.client.embeddings.generate({ requestBody: { model: "acme/embed", input: "x", encodingFormat: "base64" } });
    if (typeof b64 === "string") throw new Error(`expected JSON, got text: ${b64}`);
    const raw = b64.data[0]!.embedding;
    if (typeof raw !== "string") throw new Error("expected a base64 string");
    expect([...new Float32Array(new Uint8Array(Buffer.from(raw, "base64")).buffer)]).toEqual([0.5, -2]);

    if (!res.id) throw new Error("embeddings response without a generation id");
    const gen = await h.client.generations.getGeneration({ id: res.id });
    expect(gen.data.apiType).toBe("embeddings");
    expect(gen.data.model).toBe("acme/embed");
    expect(gen.data.tokensPrompt).toBe(6);
    expect(gen.data.totalCost).toBeCloseTo(6 * 1e-7, 12);
  });
});
