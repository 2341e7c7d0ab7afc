import type { Config } from "../config";
import type { ModelConfig, PricingConfig, ProviderConfig } from "../config-schema";
import { decimalToNanos } from "../billing/money";
import type { Catalog, CatalogEndpoint, CatalogModel, PriceTable, PricingStrings, ProviderEntry } from "./types";

const DEFAULT_CONTEXT = 128_000;
const DEFAULT_PARAMETERS = ["max_tokens", "temperature", "top_p", "stop", "tools", "tool_choice", "response_format", "seed"];

export function priceTable(p: PricingConfig | undefined): PriceTable {
  return {
    prompt: decimalToNanos(p?.prompt),
    completion: decimalToNanos(p?.completion),
    request: decimalToNanos(p?.request),
    image: decimalToNanos(p?.image),
    inputCacheRead: decimalToNanos(p?.input_cache_read),
    inputCacheWrite: decimalToNanos(p?.input_cache_write),
    inputCacheWrite1h: decimalToNanos(p?.input_cache_write_1h ?? p?.input_cache_write),
    webSearch: decimalToNanos(p?.web_search),
    internalReasoning: decimalToNanos(p?.internal_reasoning),
  };
}

function pricingStrings(p: PricingConfig | undefined): PricingStrings {
  const out: PricingStrings = {};
  for (const [k, v] of Object.entries(p ?? {})) if (v !== undefined) out[k as keyof PricingStrings] = String(v);
  return out;
}

export function providerEntry(p: ProviderConfig): ProviderEntry {
  return {
    slug: p.slug,
    name: p.name ?? p.slug,
    api: p.api,
    baseUrl: p.base_url.replace(/\/+$/, ""),
    apiKey: p.api_key || undefined,
    headers: p.headers ?? {},
    zdr: p.zdr ?? false,
    dataCollection: p.data_collection ?? "allow",
  };
}

function modelFromConfig(m: ModelConfig, providers: Map<string, ProviderEntry>, created: number): CatalogModel {
  const contextLength = m.context_length ?? DEFAULT_CONTEXT;
  const endpoints: CatalogEndpoint[] = m.endpoints.map((e, i) => {
    const provider = providers.get(e.provider);
    if (!provider) throw new Error(`models: ${m.id} endpoint ${i} names unknown provider '${e.provider}'`);
    return {
      id: `${provider.slug}/${e.model}`,
      modelId: m.id,
      provider,
      upstreamModel: e.model,
      pricing: priceTable(e.pricing),
      pricingStrings: pricingStrings(e.pricing),
      contextLength: e.context_length ?? contextLength,
      maxCompletionTokens: e.max_completion_tokens ?? null,
      quantization: e.quantization ?? null,
      supportedParameters: e.supported_parameters ?? DEFAULT_PARAMETERS,
    };
  });
  return {
    id: m.id,
    name: m.name ?? m.id,
    description: m.description ?? "",
    contextLength,
    inputModalities: m.input_modalities ?? ["text"],
    outputModalities: m.output_modalities ?? ["text"],
    endpoints,
    created,
  };
}

/** The catalog the gateway routes over: gateway.yaml providers and models. */
export function buildCatalog(config: Pick<Config, "providers" | "models">, created = Math.floor(Date.now() / 1000)): Catalog {
  const providers = new Map(config.providers.map((p) => [p.slug, providerEntry(p)]));
  const models = new Map(config.models.map((m) => [m.id, modelFromConfig(m, providers, created)]));
  return {
    getModel: (id) => models.get(id),
    models: () => [...models.values()],
    providers: () => [...providers.values()],
    getProvider: (slug) => providers.get(slug),
  };
}
