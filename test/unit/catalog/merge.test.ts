import { describe, expect, test } from "bun:test";
import { buildCatalog } from "../../../src/catalog/build-catalog";
import { ConfigError, loadConfig, parseGatewayFile } from "../../../src/config";

const config = (yaml: string, env: Record<string, string> = {}) => {
  const file = parseGatewayFile(yaml, env);
  return { providers: file.providers ?? [], models: file.models ?? [], catalog: { default: file.catalog?.default ?? true }, env };
};

describe("default catalog merged with gateway.yaml", () => {
  test("a default provider is usable when its environment variable is set", () => {
    const off = buildCatalog(config("{}"));
    expect(off.getProvider("openai")).toMatchObject({ slug: "openai", api: "openai-responses", apiKey: undefined, envVar: "OPENAI_API_KEY" });
    const on = buildCatalog(config("{}", { OPENAI_API_KEY: "sk-live" }));
    expect(on.getProvider("openai")?.apiKey).toBe("sk-live");
    expect(on.getProvider("anthropic")?.apiKey).toBeUndefined();
  });

  test("Azure is usable when its resource and key are both set; its base URL names the resource", () => {
    const keyOnly = buildCatalog(config("{}", { AZURE_API_KEY: "az-key" })).getProvider("azure");
    expect(keyOnly).toMatchObject({ api: "azure-openai", baseUrl: "https://{AZURE_RESOURCE_NAME}.openai.azure.com", apiKey: undefined });
    const resourceOnly = buildCatalog(config("{}", { AZURE_RESOURCE_NAME: "myres" })).getProvider("azure");
    expect(resourceOnly).toMatchObject({ baseUrl: "https://myres.openai.azure.com", apiKey: undefined });
    const both = buildCatalog(config("{}", { AZURE_RESOURCE_NAME: "myres", AZURE_API_KEY: "az-key" }));
    expect(both.getProvider("azure")).toEqual({
      slug: "azure",
      name: "Azure",
      api: "azure-openai",
      baseUrl: "https://myres.openai.azure.com",
      apiKey: "az-key",
      headers: {},
      zdr: false,
      dataCollection: "allow",
      envVar: "AZURE_API_KEY",
      azure: { apiVersion: "2025-04-01-preview" },
    });
    // the deployment is named after the model
    expect(both.getModel("openai/gpt-4o")!.endpoints.find((e) => e.provider.slug === "azure")).toMatchObject({ id: "azure/gpt-4o", upstreamModel: "gpt-4o" });
  });

  test("gateway.yaml adds providers and models beside the default ones", () => {
    const c = buildCatalog(
      config(
        `providers:\n  - { slug: acme, api: openai-chat, base_url: "http://127.0.0.1:9/v1", api_key: k }\nmodels:\n  - id: acme/alpha\n    endpoints: [{ provider: acme, model: alpha }]\n  - id: acme/on-groq\n    endpoints: [{ provider: groq, model: llama-x }]\n`,
      ),
    );
    expect(c.getModel("acme/alpha")?.endpoints.map((e) => e.id)).toEqual(["acme/alpha"]);
    // a yaml model may use a default-catalog provider without declaring it
    expect(c.getModel("acme/on-groq")?.endpoints[0]?.provider.baseUrl).toBe("https://api.groq.com/openai/v1");
    expect(c.getModel("openai/gpt-5")).toBeDefined();
    expect(c.providers().length).toBe(33);
  });

  test("a yaml provider with a default slug overrides it, keeping the environment key when it names none", () => {
    const c = buildCatalog(
      config(`providers:\n  - { slug: openai, api: openai-chat, base_url: "http://127.0.0.1:9/v1", zdr: true }\n`, { OPENAI_API_KEY: "sk-env" }),
    );
    const p = c.getProvider("openai")!;
    expect(p).toMatchObject({ api: "openai-chat", baseUrl: "http://127.0.0.1:9/v1", apiKey: "sk-env", zdr: true });
    // default models now call the overriding provider
    expect(c.getModel("openai/gpt-5")!.endpoints[0]!.provider).toBe(p);
  });

  test("a yaml model with a default id replaces its endpoints and inherits the metadata it leaves out", () => {
    const c = buildCatalog(
      config(
        `providers:\n  - { slug: acme, api: openai-chat, base_url: "http://127.0.0.1:9/v1" }\nmodels:\n  - id: openai/gpt-5\n    context_length: 1000\n    endpoints: [{ provider: acme, model: five, pricing: { prompt: "0.000001", completion: "0.000002" } }]\n`,
      ),
    );
    const m = c.getModel("openai/gpt-5")!;
    expect(m.endpoints.map((e) => e.id)).toEqual(["acme/five"]);
    expect(m).toMatchObject({ name: "GPT-5", contextLength: 1000, knowledgeCutoff: "2024-09-30", inputModalities: ["text", "image"], created: 1754524800 });
    expect(m.endpoints[0]!.pricingStrings).toEqual({ prompt: "0.000001", completion: "0.000002" });
  });

  test("catalog: { default: false } leaves only gateway.yaml", () => {
    const c = buildCatalog(
      config(
        `catalog: { default: false }\nproviders:\n  - { slug: acme, api: openai-chat, base_url: "http://127.0.0.1:9/v1" }\nmodels:\n  - id: acme/alpha\n    endpoints: [{ provider: acme, model: alpha }]\n`,
      ),
    );
    expect(c.models().map((m) => m.id)).toEqual(["acme/alpha"]);
    expect(c.providers().map((p) => p.slug)).toEqual(["acme"]);
  });

  test("endpoint references: default providers count unless the default catalog is off", () => {
    const yaml = `models:\n  - id: x/y\n    endpoints: [{ provider: groq, model: y }]\n`;
    expect(parseGatewayFile(yaml, {}).models?.[0]?.id).toBe("x/y");
    const refused = (text: string, env: Record<string, string> = {}) => {
      try {
        parseGatewayFile(text, env);
        return "accepted";
      } catch (err) {
        return err instanceof ConfigError ? err.message : String(err);
      }
    };
    expect(refused(`catalog: { default: false }\n${yaml}`)).toBe(
      'config error: models[0].endpoints[0].provider: expected the slug of a provider declared under providers (got "groq")',
    );
    expect(refused(yaml, { GATEWAY_DEFAULT_CATALOG: "false" })).toBe(
      'config error: models[0].endpoints[0].provider: expected the slug of a provider declared under providers (got "groq")',
    );
    expect(refused(`models:\n  - id: x/y\n    endpoints: [{ provider: nope, model: y }]\n`)).toBe(
      'config error: models[0].endpoints[0].provider: expected the slug of a provider declared under providers or of a default-catalog provider (got "nope")',
    );
  });

  test("loadConfig: GATEWAY_DEFAULT_CATALOG and the environment reach the catalog", () => {
    const base = { DATABASE_URL: ":memory:" };
    expect(buildCatalog(loadConfig({ ...base, GATEWAY_DEFAULT_CATALOG: "false" })).models()).toEqual([]);
    const c = buildCatalog(loadConfig({ ...base, GROQ_API_KEY: "gsk" }));
    expect(c.getProvider("groq")?.apiKey).toBe("gsk");
  });
});
