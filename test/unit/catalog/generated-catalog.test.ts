import { describe, expect, test } from "bun:test";
import { buildCatalog } from "../../../src/catalog/build-catalog";
import { DEFAULT_CATALOG, defaultProviderSlugs } from "../../../src/catalog/default-catalog";

const provider = (slug: string) => DEFAULT_CATALOG.providers.find((p) => p.slug === slug);
const model = (id: string) => DEFAULT_CATALOG.models.find((m) => m.id === id);

describe("generated default catalog", () => {
  test("has the expected providers with API kind, base URL and key variable", () => {
    expect(provider("openai")).toEqual({
      slug: "openai",
      name: "OpenAI",
      api: "openai-responses",
      baseUrl: "https://api.openai.com/v1",
      env: "OPENAI_API_KEY",
    });
    expect(provider("anthropic")).toEqual({
      slug: "anthropic",
      name: "Anthropic",
      api: "anthropic-messages",
      baseUrl: "https://api.anthropic.com/v1",
      env: "ANTHROPIC_API_KEY",
    });
    expect(provider("groq")).toEqual({ slug: "groq", name: "Groq", api: "openai-chat", baseUrl: "https://api.groq.com/openai/v1", env: "GROQ_API_KEY" });
    expect(provider("deepseek")?.env).toBe("DEEPSEEK_API_KEY");
    expect(provider("mistral")?.baseUrl).toBe("https://api.mistral.ai/v1");
    expect(provider("together")?.baseUrl).toBe("https://api.together.xyz/v1");
    expect(provider("fireworks")?.baseUrl).toBe("https://api.fireworks.ai/inference/v1");
    expect(provider("xai")?.env).toBe("XAI_API_KEY");
    expect(provider("openrouter")).toEqual({
      slug: "openrouter",
      name: "OpenRouter",
      api: "openai-chat",
      baseUrl: "https://openrouter.ai/api/v1",
      env: "OPENROUTER_API_KEY",
    });
    for (const p of DEFAULT_CATALOG.providers) {
      expect(p.baseUrl).toMatch(/^https:\/\/[^/]+.*[^/]$/);
      expect(p.env).toMatch(/^[A-Z][A-Z0-9_]+$/);
    }
    // providers needing more than one credential are left out, unless their API reads them itself (issue 40)
    expect(provider("amazon-bedrock")).toEqual({
      slug: "amazon-bedrock",
      name: "Amazon Bedrock",
      api: "bedrock",
      baseUrl: "https://bedrock-runtime.{region}.amazonaws.com",
      env: "AWS_BEARER_TOKEN_BEDROCK",
    });
    // and Azure's second variable, its resource, only fills in the base URL
    expect(provider("azure")).toEqual({
      slug: "azure",
      name: "Azure",
      api: "azure-openai",
      baseUrl: "https://{AZURE_RESOURCE_NAME}.openai.azure.com",
      env: "AZURE_API_KEY",
    });
  });

  test("a model served by several providers has one id and one endpoint per provider", () => {
    const oss = model("openai/gpt-oss-120b")!;
    const slugs = oss.endpoints.map((e) => e.provider);
    expect(slugs).toContain("groq");
    expect(slugs).toContain("cerebras");
    expect(new Set(slugs).size).toBe(slugs.length);
    expect(oss.endpoints.find((e) => e.provider === "groq")?.model).toBe("openai/gpt-oss-120b");
    expect(oss.endpoints.find((e) => e.provider === "cerebras")?.model).toBe("gpt-oss-120b");
    expect(oss.endpoints.find((e) => e.provider === "fireworks")?.model).toBe("accounts/fireworks/models/gpt-oss-120b");

    const sonnet = model("anthropic/claude-sonnet-4")!;
    expect(sonnet.endpoints.map((e) => [e.provider, e.model])).toContainEqual(["anthropic", "claude-sonnet-4-20250514"]);
    expect(sonnet.endpoints.map((e) => e.provider)).toContain("openrouter");
    // the first-party provider comes first and gives the model its metadata
    expect(sonnet.endpoints[0]!.provider).toBe("anthropic");
    // Bedrock's ids lose the vendor prefix and version to find the same model
    expect(sonnet.endpoints.find((e) => e.provider === "amazon-bedrock")?.model).toBe("anthropic.claude-sonnet-4-20250514-v1:0");
    expect(model("amazon/nova-pro")?.endpoints.map((e) => [e.provider, e.model])).toContainEqual(["amazon-bedrock", "amazon.nova-pro-v1:0"]);
  });

  test("models carry name, description, context, modalities, cutoff, per-token prices and parameters", () => {
    const gpt5 = model("openai/gpt-5")!;
    expect(gpt5).toMatchObject({
      name: "GPT-5",
      knowledgeCutoff: "2024-09-30",
      contextLength: 400000,
      inputModalities: ["text", "image"],
      outputModalities: ["text"],
      reasoning: true,
      created: 1754524800,
    });
    expect(gpt5.description).toStartWith("GPT-5 by openai, released 2025-08-07");
    const openai = gpt5.endpoints.find((e) => e.provider === "openai")!;
    expect(openai.pricing).toEqual({ prompt: "0.00000125", completion: "0.00001", input_cache_read: "0.00000013" });
    expect(openai.maxCompletionTokens).toBe(128000);
    // no temperature on gpt-5; tools and reasoning derived from its capabilities
    expect(openai.supportedParameters).toEqual([
      "max_tokens",
      "response_format",
      "structured_outputs",
      "tools",
      "tool_choice",
      "parallel_tool_calls",
      "reasoning",
      "include_reasoning",
      "reasoning_effort",
    ]);
    const claude = model("anthropic/claude-sonnet-4")!.endpoints[0]!;
    expect(claude.pricing).toEqual({ prompt: "0.000003", completion: "0.000015", input_cache_read: "0.0000003", input_cache_write: "0.00000375" });
    expect(claude.supportedParameters).toEqual([
      "max_tokens",
      "stop",
      "temperature",
      "top_p",
      "top_k",
      "tools",
      "tool_choice",
      "reasoning",
      "include_reasoning",
    ]);
  });

  test("embedding models are in it with output [embeddings]", () => {
    const small = model("openai/text-embedding-3-small")!;
    expect(small.outputModalities).toEqual(["embeddings"]);
    expect(small.endpoints).toEqual([
      {
        provider: "openai",
        model: "text-embedding-3-small",
        contextLength: 8191,
        maxCompletionTokens: null,
        pricing: { prompt: "0.00000002", completion: "0" },
        supportedParameters: [],
        quantization: null,
      },
    ]);
  });

  test("every endpoint names a provider of the catalog; ids are unique and author/slug", () => {
    const slugs = defaultProviderSlugs();
    const ids = new Set<string>();
    for (const m of DEFAULT_CATALOG.models) {
      expect(m.id).toMatch(/^[a-z0-9._~-]+\/[a-z0-9._:~-]+$/);
      expect(ids.has(m.id)).toBe(false);
      ids.add(m.id);
      expect(m.endpoints.length).toBeGreaterThan(0);
      for (const e of m.endpoints) {
        expect(slugs.has(e.provider)).toBe(true);
        expect(e.pricing.prompt).toMatch(/^\d+(\.\d+)?$/);
        expect(e.pricing.completion).toMatch(/^\d+(\.\d+)?$/);
      }
    }
    expect(DEFAULT_CATALOG.models.length).toBeGreaterThan(200);
  });

  test("the built catalog prices from the strings and links endpoints to their providers", () => {
    const catalog = buildCatalog({ providers: [], models: [], catalog: { default: true }, env: {} });
    const e = catalog.getModel("openai/gpt-5")!.endpoints[0]!;
    expect(e.id).toBe("openai/gpt-5");
    expect(e.pricing.prompt).toBe(1250);
    expect(e.pricing.completion).toBe(10000);
    expect(e.provider).toBe(catalog.getProvider("openai")!);
  });
});

test("the committed file is exactly what the generator produces from the installed models.dev data", () => {
  const run = Bun.spawnSync(["bun", "scripts/generate-catalog.ts", "--check"], { cwd: `${import.meta.dir}/../../..`, stderr: "pipe", stdout: "pipe" });
  expect([run.exitCode, run.stderr.toString()]).toEqual([0, ""]);
});
