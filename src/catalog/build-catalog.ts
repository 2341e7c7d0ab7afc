import type { Config } from "../config";
import type { ChatProviderConfig, ModelConfig, PricingConfig, ProviderConfig } from "../config-schema";
import { isVideoApi } from "../videos/video-api";
import { isMediaApi } from "../config-media-schema";
import { decimalToNanos } from "../billing/money";
import { DEFAULT_CATALOG } from "./default-catalog";
import type { DefaultCatalogData, DefaultModel } from "./default-catalog-data";
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

export function providerEntry(p: ChatProviderConfig): ProviderEntry {
  return {
    slug: p.slug,
    name: p.name ?? p.slug,
    api: p.api,
    baseUrl: p.base_url.replace(/\/+$/, ""),
    apiKey: p.api_key || undefined,
    headers: p.headers ?? {},
    zdr: p.zdr ?? false,
    dataCollection: p.data_collection ?? "allow",
    ...(p.drop_params?.length ? { dropParams: p.drop_params } : {}),
  };
}

type Env = Record<string, string | undefined>;

/** Default-catalog providers; usable (an apiKey) only when their environment variable is set. */
function defaultProviders(data: DefaultCatalogData, env: Env): ProviderEntry[] {
  return data.providers.map((p) => ({
    slug: p.slug,
    name: p.name,
    api: p.api,
    baseUrl: p.baseUrl,
    apiKey: env[p.env] || undefined,
    headers: {},
    zdr: false,
    dataCollection: "allow",
    envVar: p.env,
  }));
}

/** A gateway.yaml provider replaces the default one of the same slug, keeping its environment key when it names none. */
function overrideProvider(p: ChatProviderConfig, base: ProviderEntry | undefined): ProviderEntry {
  const entry = providerEntry(p);
  if (!base) return entry;
  return { ...entry, apiKey: entry.apiKey ?? base.apiKey, envVar: base.envVar };
}

function defaultModel(m: DefaultModel, providers: Map<string, ProviderEntry>): CatalogModel {
  const endpoints = m.endpoints.flatMap((e): CatalogEndpoint[] => {
    const provider = providers.get(e.provider);
    if (!provider) return [];
    return [
      {
        id: `${provider.slug}/${e.model}`,
        modelId: m.id,
        provider,
        upstreamModel: e.model,
        pricing: priceTable(e.pricing),
        pricingStrings: e.pricing,
        contextLength: e.contextLength,
        maxCompletionTokens: e.maxCompletionTokens,
        quantization: e.quantization,
        supportedParameters: e.supportedParameters,
      },
    ];
  });
  return {
    id: m.id,
    name: m.name,
    description: m.description,
    contextLength: m.contextLength,
    inputModalities: m.inputModalities,
    outputModalities: m.outputModalities,
    endpoints,
    created: m.created,
    knowledgeCutoff: m.knowledgeCutoff,
    reasoning: m.reasoning,
  };
}

/**
 * A gateway.yaml model. With the id of a default model it overrides it: the yaml endpoints
 * replace the default ones (what the operator wrote is what serves the model), and metadata the
 * yaml leaves out (name, description, context, modalities, cutoff) comes from the default.
 */
function modelFromConfig(m: ModelConfig, providers: Map<string, ProviderEntry>, created: number, base?: CatalogModel): CatalogModel {
  const contextLength = m.context_length ?? base?.contextLength ?? DEFAULT_CONTEXT;
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
    name: m.name ?? base?.name ?? m.id,
    description: m.description ?? base?.description ?? "",
    contextLength,
    inputModalities: m.input_modalities ?? base?.inputModalities ?? ["text"],
    outputModalities: m.output_modalities ?? base?.outputModalities ?? ["text"],
    endpoints,
    created: base?.created ?? created,
    knowledgeCutoff: base?.knowledgeCutoff ?? null,
    reasoning: base?.reasoning ?? false,
  };
}

export type CatalogConfig = Pick<Config, "providers" | "models"> & Partial<Pick<Config, "catalog" | "env">>;

/**
 * The catalog the gateway routes over: the embedded default catalog (unless `catalog.default`
 * is false; callers that pass no `catalog` get none) with gateway.yaml providers and models
 * merged over it.
 */
export function buildCatalog(config: CatalogConfig, created = Math.floor(Date.now() / 1000), data: DefaultCatalogData = DEFAULT_CATALOG): Catalog {
  const useDefault = config.catalog?.default ?? false;
  const providers = new Map<string, ProviderEntry>();
  if (useDefault) for (const p of defaultProviders(data, config.env ?? {})) providers.set(p.slug, p);
  // video providers serve video_models only (src/videos/video-catalog.ts): chat routing never sees them
  for (const p of config.providers.filter(isChatProvider)) providers.set(p.slug, overrideProvider(p, providers.get(p.slug)));

  const models = new Map<string, CatalogModel>();
  if (useDefault) for (const m of data.models) models.set(m.id, defaultModel(m, providers));
  for (const m of config.models) models.set(m.id, modelFromConfig(m, providers, created, models.get(m.id)));
  return {
    getModel: (id) => models.get(id),
    models: () => [...models.values()],
    providers: () => [...providers.values()],
    getProvider: (slug) => providers.get(slug),
  };
}

// video and media providers serve their own lists only
const isChatProvider = (p: ProviderConfig): p is ChatProviderConfig => !isVideoApi(p.api) && !isMediaApi(p.api);
