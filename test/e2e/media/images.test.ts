// POST /api/v1/images and the image model listings, through @openrouter/sdk 1.3.19.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createInferenceKey } from "../../support/gateway";
import { errorOf, generationOf, keyUsage, type MediaHarness, sdkOf, startMediaHarness, upstreamCalls } from "./setup";

let h: MediaHarness;
beforeAll(async () => {
  h = await startMediaHarness();
});
afterAll(() => h.close());
beforeEach(() => {
  for (const m of [h.imgA, h.imgB]) {
    m.bodies.length = 0;
    m.calls.length = 0;
    m.answer = "b64_json";
    m.returned = undefined;
    m.usage = { input_tokens: 50, output_tokens: 4160 };
  }
});

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

describe("image generation", () => {
  test("the exact upstream body, the images as the upstream made them, the cost of the images returned = the generation's total_cost = the rise of the key's usage", async () => {
    const before = await keyUsage(h.gw, h.key);
    const res = (await h.sdk.images.generate({
      imageGenerationRequest: {
        model: "openai/gpt-image-1",
        prompt: "a red fox in the snow",
        n: 2,
        quality: "medium",
        outputFormat: "webp",
        outputCompression: 80,
        background: "opaque",
        seed: 7,
        user: "u-1",
        sessionId: "s-1",
        stream: true,
        provider: { options: { openai: { parameters: { moderation: "low" } } } },
      },
    })) as { created: number; data: Array<{ b64Json: string; mediaType?: string }>; usage?: Record<string, unknown> };
    // stream: true is answered as JSON; seed is not sent to an endpoint without seed; user, session, trace, provider, stream stay behind
    expect(h.imgA.bodies).toEqual([
      {
        model: "gpt-image-1",
        prompt: "a red fox in the snow",
        n: 2,
        size: "1024x1024",
        quality: "medium",
        output_format: "webp",
        output_compression: 80,
        background: "opaque",
        moderation: "low",
      },
    ]);
    expect(res.data).toEqual([
      { b64Json: b64(h.imgA.image(0)), mediaType: "image/webp" },
      { b64Json: b64(h.imgA.image(1)), mediaType: "image/webp" },
    ]);
    expect(res.created).toBe(1_713_833_628);
    expect(res.usage).toEqual({ promptTokens: 50, completionTokens: 4160, totalTokens: 4210, cost: 0.084 });
    expect(await keyUsage(h.gw, h.key)).toBeCloseTo(before + 0.084, 12);
  });

  test("the record: api_type image, the public model, the provider, every attempt, the images returned, total_cost", async () => {
    const res = await h.gw.api("/api/v1/images", { method: "POST", key: h.key, json: { model: "openai/gpt-image-1", prompt: "fox", size: "1536x1024" } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { id: string; usage: { cost: number } };
    expect(res.headers.get("x-generation-id")).toBe(body.id);
    expect(h.imgA.bodies).toEqual([{ model: "gpt-image-1", prompt: "fox", n: 1, size: "1536x1024", quality: "low" }]);
    expect(body.usage.cost).toBe(0.016);
    const g = await generationOf(h.gw, h.key, body.id);
    expect([
      g.api_type,
      g.model,
      g.provider_name,
      g.total_cost,
      g.usage,
      g.is_byok,
      g.num_media_completion,
      g.tokens_prompt,
      g.tokens_completion,
      g.streamed,
    ]).toEqual(["image", "openai/gpt-image-1", "openai", 0.016, 0.016, false, 1, 50, 4160, false]);
    expect(g.provider_responses.map((a: any) => [a.provider_name, a.endpoint_id, a.status])).toEqual([["openai", "openai/gpt-image-1", 200]]);
  });

  test("aspect_ratio picks the endpoint's size of that ratio; fewer images than asked are charged as returned; no usage is 0 tokens", async () => {
    h.imgA.returned = 1;
    h.imgA.usage = null;
    const res = (await h.sdk.images.generate({
      imageGenerationRequest: { model: "openai/gpt-image-1", prompt: "tall", aspectRatio: "2:3", quality: "high", n: 3 },
    })) as { data: unknown[]; usage?: Record<string, unknown> };
    expect(h.imgA.bodies).toEqual([{ model: "gpt-image-1", prompt: "tall", n: 3, size: "1024x1536", quality: "high" }]);
    expect(res.data.length).toBe(1);
    expect(res.usage).toEqual({ promptTokens: 0, completionTokens: 0, totalTokens: 0, cost: 0.25 });
  });

  test("an upstream URL answer is downloaded and returned as b64_json; a single price for every variant", async () => {
    h.imgA.answer = "url";
    const before = h.imgA.downloads;
    const res = (await h.sdk.images.generate({ imageGenerationRequest: { model: "openai/dall-e-3", prompt: "lighthouse", seed: 3, size: "1792x1024" } })) as {
      data: Array<{ b64Json: string; mediaType?: string }>;
      usage?: { cost?: number };
    };
    expect(h.imgA.bodies).toEqual([{ model: "dall-e-3", prompt: "lighthouse", n: 1, size: "1792x1024", seed: 3 }]);
    expect(h.imgA.downloads).toBe(before + 1);
    expect(res.data).toEqual([{ b64Json: b64(h.imgA.image(0)), mediaType: "image/png" }]);
    expect(res.usage?.cost).toBe(0.04);
  });
});

describe("routing and failures", () => {
  test("a 503 falls over to the next endpoint, charged at its price; both attempts recorded", async () => {
    h.imgA.fail("/images/generations", { status: 503, message: "overloaded" });
    const before = await keyUsage(h.gw, h.key);
    const res = await h.gw.api("/api/v1/images", { method: "POST", key: h.key, json: { model: "openai/gpt-image-1", prompt: "fox", n: 2, quality: "high" } });
    const body = (await res.json()) as { id: string; usage: { cost: number } };
    expect(res.status).toBe(200);
    expect(h.imgA.bodies).toEqual([]);
    expect(h.imgB.bodies).toEqual([{ model: "gpt-image-1-b", prompt: "fox", n: 2, size: "1024x1024", quality: "high" }]);
    expect(body.usage.cost).toBe(0.4);
    const g = await generationOf(h.gw, h.key, body.id);
    expect(g.provider_responses.map((a: any) => [a.provider_name, a.status])).toEqual([
      ["openai", 503],
      ["img-b", 200],
    ]);
    expect([g.provider_name, g.total_cost]).toEqual(["img-b", 0.4]);
    expect(await keyUsage(h.gw, h.key)).toBeCloseTo(before + 0.4, 12);
  });

  test("provider.order and provider.ignore choose the endpoints, as for chat", async () => {
    await h.sdk.images.generate({ imageGenerationRequest: { model: "openai/gpt-image-1", prompt: "o", provider: { order: ["img-b"] } } });
    expect([h.imgA.bodies.length, h.imgB.bodies.length]).toEqual([0, 1]);
    await h.sdk.images.generate({ imageGenerationRequest: { model: "openai/gpt-image-1", prompt: "i", provider: { ignore: ["OpenAI"] } } });
    expect([h.imgA.bodies.length, h.imgB.bodies.length]).toEqual([0, 2]);
  });

  test("an upstream 400 is the client's 400 with the upstream's message, without fallback, and costs nothing", async () => {
    h.imgA.fail("/images/generations", { status: 400, message: "Your request was rejected by the safety system." });
    const before = await keyUsage(h.gw, h.key);
    const res = await h.gw.api("/api/v1/images", { method: "POST", key: h.key, json: { model: "openai/gpt-image-1", prompt: "fox" } });
    const err = await errorOf(res);
    expect([err.status, err.error.message]).toEqual([400, "Provider openai rejected the request: Your request was rejected by the safety system."]);
    expect(h.imgB.calls.length).toBe(0);
    const g = await generationOf(h.gw, h.key, res.headers.get("x-generation-id")!);
    expect([g.total_cost, g.api_type]).toEqual([0, "image"]);
    expect(await keyUsage(h.gw, h.key)).toBe(before);
  });

  test("every endpoint 429: 429 with the upstream's Retry-After; every one 5xx: 502 naming the provider", async () => {
    h.imgA.fail("/images/generations", { status: 429, headers: { "retry-after": "9" } });
    h.imgB.fail("/images/generations", { status: 429, headers: { "retry-after": "9" } });
    const limited = await h.gw.api("/api/v1/images", { method: "POST", key: h.key, json: { model: "openai/gpt-image-1", prompt: "fox" } });
    expect([limited.status, limited.headers.get("retry-after")]).toEqual([429, "9"]);
    h.imgA.fail("/images/generations", { status: 500 });
    h.imgB.fail("/images/generations", { status: 502 });
    const failed = await errorOf(await h.gw.api("/api/v1/images", { method: "POST", key: h.key, json: { model: "openai/gpt-image-1", prompt: "fox" } }));
    expect([failed.status, failed.error.metadata?.provider_name]).toEqual([502, "img-b"]);
  });

  test("BYOK: a workspace's own key serves a provider the gateway has no key for, recorded as BYOK", async () => {
    const noKey = await errorOf(await h.gw.api("/api/v1/images", { method: "POST", key: h.key, json: { model: "acme/byok-image", prompt: "x" } }));
    expect(noKey.status).toBe(503);
    expect(noKey.error.message).toContain("byok-img/gpt-image-1 has no usable credentials");
    const created = await h.gw.api("/api/v1/byok", { method: "POST", json: { provider: "byok-img", key: "images-key" } });
    expect(created.status).toBe(201);
    const res = await h.gw.api("/api/v1/images", { method: "POST", key: h.key, json: { model: "acme/byok-image", prompt: "x" } });
    expect(res.status).toBe(200);
    const g = await generationOf(h.gw, h.key, res.headers.get("x-generation-id")!);
    expect([g.is_byok, g.provider_name, g.total_cost]).toEqual([true, "byok-img", 0.05]);
  });
});

describe("validation, money and auth", () => {
  const cases: Array<[string, Record<string, unknown>, string, unknown[] | undefined]> = [
    ["empty prompt", { prompt: "  " }, "prompt", undefined],
    ["a size not listed", { size: "512x512" }, "size", ["1024x1024", "1536x1024", "1024x1536"]],
    ["a tier size", { size: "2K" }, "size", ["1024x1024", "1536x1024", "1024x1536"]],
    ["resolution", { resolution: "2K" }, "resolution", []],
    ["quality", { quality: "ultra" }, "quality", ["low", "medium", "high"]],
    ["output_format", { output_format: "gif" }, "output_format", ["png", "jpeg", "webp"]],
    ["aspect_ratio", { aspect_ratio: "16:9" }, "aspect_ratio", ["1:1", "3:2", "2:3"]],
    ["aspect_ratio against size", { aspect_ratio: "3:2", size: "1024x1024" }, "aspect_ratio", ["1:1"]],
    [
      "a passthrough name not allowed",
      { provider: { options: { openai: { parameters: { style: "vivid" } } } } },
      "provider.options.openai.parameters.style",
      ["moderation"],
    ],
  ];
  for (const [what, fields, field, allowed] of cases)
    test(`400 naming ${field}: ${what}; nothing upstream`, async () => {
      const calls = upstreamCalls(h);
      const err = await errorOf(
        await h.gw.api("/api/v1/images", { method: "POST", key: h.key, json: { model: "openai/gpt-image-1", prompt: "fox", ...fields } }),
      );
      expect([err.status, err.error.metadata?.field, err.error.metadata?.allowed]).toEqual([400, field, allowed]);
      expect(err.error.message).toContain(field.split(".")[0]!);
      for (const value of allowed ?? []) expect(err.error.message).toContain(String(value));
      expect(upstreamCalls(h)).toBe(calls);
    });

  test("n above the model's maximum and background on a model without it are 400s naming the field", async () => {
    const n = await errorOf(await h.gw.api("/api/v1/images", { method: "POST", key: h.key, json: { model: "openai/gpt-image-1", prompt: "x", n: 5 } }));
    expect([n.status, n.error.metadata, n.error.message]).toEqual([
      400,
      { field: "n", minimum: 1, maximum: 4 },
      "n must be from 1 to 4 for openai/gpt-image-1",
    ]);
    const bg = await errorOf(
      await h.gw.api("/api/v1/images", { method: "POST", key: h.key, json: { model: "openai/dall-e-3", prompt: "x", background: "transparent" } }),
    );
    expect([bg.status, bg.error.metadata]).toEqual([400, { field: "background", allowed: [] }]);
  });

  test("a model of another kind, or none, is 404; the answer carries X-Generation-Id", async () => {
    const res = await h.gw.api("/api/v1/images", { method: "POST", key: h.key, json: { model: "openai/tts-1", prompt: "x" } });
    expect(res.status).toBe(404);
    expect(res.headers.get("x-generation-id")).toStartWith("gen-");
  });

  test("402 when the worst case does not fit the key's limit: n × the dearest candidate's variant price; nothing upstream", async () => {
    // 2 high 1024x1024 images: 2 × $0.167 first, 2 × $0.2 on the second endpoint: neither fits $0.30
    const { key } = await createInferenceKey(h.gw, { name: "tight", limit: 0.3 });
    const calls = upstreamCalls(h);
    const err = await errorOf(
      await h.gw.api("/api/v1/images", { method: "POST", key, json: { model: "openai/gpt-image-1", prompt: "x", n: 2, quality: "high" } }),
    );
    expect(err.status).toBe(402);
    expect(upstreamCalls(h)).toBe(calls);
    const fits = await h.gw.api("/api/v1/images", { method: "POST", key, json: { model: "openai/gpt-image-1", prompt: "x", n: 2, quality: "medium" } });
    expect(fits.status).toBe(200);
    expect(await keyUsage(h.gw, key)).toBe(0.084);
  });

  test("no key 401; a management key 403 before its body is validated", async () => {
    expect((await h.gw.api("/api/v1/images", { method: "POST", key: null, json: { model: "openai/gpt-image-1", prompt: "x" } })).status).toBe(401);
    const err = await errorOf(await h.gw.api("/api/v1/images", { method: "POST", json: { model: 42 } }));
    expect(err.status).toBe(403);
  });
});

describe("listings", () => {
  test("images.listModels: each model with what its endpoints take, not in /api/v1/models", async () => {
    const sdk = sdkOf(h.gw, "no key needed");
    const list = await sdk.images.listModels();
    const gpt = list.data.find((m) => m.id === "openai/gpt-image-1")!;
    expect(gpt).toEqual({
      id: "openai/gpt-image-1",
      name: "OpenAI: GPT Image 1",
      description: "GPT Image through two providers",
      created: gpt.created,
      architecture: { inputModalities: ["text"], outputModalities: ["image"] },
      endpoints: "/api/v1/images/models/openai/gpt-image-1/endpoints",
      supportedParameters: {
        size: { type: "enum", values: ["1024x1024", "1536x1024", "1024x1536"] },
        quality: { type: "enum", values: ["low", "medium", "high"] },
        n: { type: "range", min: 1, max: 4 },
        output_format: { type: "enum", values: ["png", "jpeg", "webp"] },
        aspect_ratio: { type: "enum", values: ["1:1", "3:2", "2:3"] },
        background: { type: "enum", values: ["auto", "transparent", "opaque"] },
      },
      supportsStreaming: false,
    } as never);
    expect(list.data.map((m) => m.id)).toEqual(["openai/gpt-image-1", "openai/dall-e-3", "acme/byok-image"]);
    const models = (await (await h.gw.api("/api/v1/models?output_modalities=all")).json()) as { data: Array<{ id: string }> };
    expect(models.data.map((m) => m.id).filter((id) => id.includes("image") || id.includes("dall"))).toEqual([]);
  });

  test("images.listModelEndpoints: each endpoint's parameters and prices per image; not an image model: 404", async () => {
    const sdk = sdkOf(h.gw, "no key needed");
    const dalle = await sdk.images.listModelEndpoints({ author: "openai", slug: "dall-e-3" });
    expect(dalle).toEqual({
      id: "openai/dall-e-3",
      endpoints: [
        {
          providerName: "OpenAI",
          providerSlug: "openai",
          providerTag: "openai",
          supportedParameters: {
            size: { type: "enum", values: ["1024x1024", "1792x1024"] },
            n: { type: "range", min: 1, max: 1 },
            output_format: { type: "enum", values: ["png"] },
            aspect_ratio: { type: "enum", values: ["1:1", "7:4"] },
            seed: { type: "boolean" },
          },
          pricing: [{ billable: "output_image", unit: "image", costUsd: 0.04 }],
          allowedPassthroughParameters: [],
          supportsStreaming: false,
        },
      ],
    } as never);
    const gpt = await sdk.images.listModelEndpoints({ author: "openai", slug: "gpt-image-1" });
    expect(gpt.endpoints[1]!.pricing).toEqual([
      { billable: "output_image", unit: "image", costUsd: 0.02, variant: "1024x1024/low" },
      { billable: "output_image", unit: "image", costUsd: 0.05, variant: "1024x1024/medium" },
      { billable: "output_image", unit: "image", costUsd: 0.2, variant: "1024x1024/high" },
    ] as never);
    expect((await h.gw.api("/api/v1/images/models/openai/tts-1/endpoints")).status).toBe(404);
  });
});
