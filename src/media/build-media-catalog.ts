import { decimalToNanos } from "../billing/money";
import type { Config } from "../config";
import {
  type ImageEndpointConfig,
  isMediaApi,
  MEDIA_KINDS,
  type MediaKind,
  type MediaModelsConfig,
  type RerankEndpointConfig,
  type SpeechEndpointConfig,
  type TranscriptionEndpointConfig,
} from "../config-media-schema";
import type { ProviderConfig } from "../config-schema";
import { DEFAULT_MEDIA_MODELS, DEFAULT_MEDIA_PROVIDERS } from "./default-media-catalog";
import type {
  ImageEndpoint,
  MediaCatalog,
  MediaEndpoint,
  MediaEndpointOf,
  MediaModel,
  MediaProvider,
  RerankEndpoint,
  SpeechEndpoint,
  TranscriptionEndpoint,
} from "./media-catalog";

export type MediaConfig = Pick<Config, "providers" | "catalog" | "env"> & MediaModelsConfig;

const LIST_OF: Readonly<Record<MediaKind, keyof MediaModelsConfig>> = {
  image: "imageModels",
  speech: "speechModels",
  transcription: "transcriptionModels",
  rerank: "rerankModels",
};

const MB = 1024 * 1024;
const str = (d: string | number) => String(d);

function providerOf(p: ProviderConfig, envVar?: string, envKey?: string): MediaProvider {
  return {
    slug: p.slug,
    name: p.name ?? p.slug,
    api: p.api as MediaProvider["api"],
    baseUrl: p.base_url.replace(/\/+$/, ""),
    apiKey: p.api_key || envKey || undefined,
    headers: p.headers ?? {},
    zdr: p.zdr ?? false,
    dataCollection: p.data_collection ?? "allow",
    ...(envVar ? { envVar } : {}),
  };
}

/** gateway.yaml's media providers, and the default ones whose key is set (a yaml provider of the same slug and api replaces one, keeping its variable). */
function mediaProviders(config: MediaConfig): Map<string, MediaProvider> {
  const providers = new Map<string, MediaProvider>();
  const own = new Map(config.providers.map((p) => [p.slug, p]));
  if (config.catalog.default)
    for (const d of DEFAULT_MEDIA_PROVIDERS) {
      const key = config.env[d.env] || undefined;
      const replacing = own.get(d.slug);
      if (replacing) {
        if (replacing.api === d.api) providers.set(d.slug, providerOf(replacing, d.env, key));
      } else if (key) providers.set(d.slug, providerOf(d, d.env, key));
    }
  for (const p of config.providers) if (isMediaApi(p.api) && !providers.has(p.slug)) providers.set(p.slug, providerOf(p));
  return providers;
}

const base = (
  modelId: string,
  e: { provider: string; model: string; allowed_passthrough_parameters?: string[] },
  provider: MediaProvider,
  prices: readonly number[],
) => ({
  id: `${provider.slug}/${e.model}`,
  modelId,
  provider,
  upstreamModel: e.model,
  passthrough: e.allowed_passthrough_parameters ?? [],
  free: prices.every((nanos) => nanos === 0),
});

const ENDPOINT_OF: { [K in MediaKind]: (modelId: string, e: never, provider: MediaProvider) => MediaEndpointOf[K] } = {
  image: (modelId, e: ImageEndpointConfig, provider): ImageEndpoint => {
    const prices = e.pricing.per_image;
    const nanos = typeof prices === "object" ? Object.values(prices).map(decimalToNanos) : [decimalToNanos(prices)];
    return {
      ...base(modelId, e, provider, nanos),
      kind: "image",
      sizes: e.supported_sizes,
      qualities: e.supported_qualities ?? null,
      outputFormats: e.supported_output_formats ?? ["png"],
      maxImages: e.max_images ?? 1,
      background: e.background ?? false,
      seed: e.seed ?? false,
      prices:
        typeof prices === "object"
          ? { single: null, byVariant: Object.fromEntries(Object.entries(prices).map(([k, v]) => [k, decimalToNanos(v)])) }
          : { single: decimalToNanos(prices), byVariant: {} },
      priceStrings: typeof prices === "object" ? Object.fromEntries(Object.entries(prices).map(([k, v]) => [k, str(v)])) : str(prices),
    };
  },
  speech: (modelId, e: SpeechEndpointConfig, provider): SpeechEndpoint => ({
    ...base(modelId, e, provider, [decimalToNanos(e.pricing.per_million_characters)]),
    kind: "speech",
    voices: e.voices,
    responseFormats: e.response_formats,
    maxInputChars: e.max_input_chars ?? 4096,
    speed: e.speed ?? false,
    nanosPerCharacter: decimalToNanos(e.pricing.per_million_characters) / 1_000_000,
    priceString: str(e.pricing.per_million_characters),
  }),
  transcription: (modelId, e: TranscriptionEndpointConfig, provider): TranscriptionEndpoint => {
    const perSecond = e.pricing.per_second !== undefined ? decimalToNanos(e.pricing.per_second) : decimalToNanos(e.pricing.per_minute) / 60;
    const maxFileMb = e.max_file_mb ?? 25;
    return {
      ...base(modelId, e, provider, [perSecond]),
      kind: "transcription",
      inputFormats: e.input_formats,
      maxFileMb,
      maxFileBytes: Math.floor(maxFileMb * MB),
      maxDurationSeconds: e.max_duration_seconds,
      nanosPerSecond: perSecond,
      pricePerSecondUsd: e.pricing.per_second !== undefined ? str(e.pricing.per_second) : String(Number(e.pricing.per_minute) / 60),
    };
  },
  rerank: (modelId, e: RerankEndpointConfig, provider): RerankEndpoint => {
    const prices = { perSearch: decimalToNanos(e.pricing.per_search), per1kDocuments: decimalToNanos(e.pricing.per_1k_documents) };
    return {
      ...base(modelId, e, provider, [prices.perSearch, prices.per1kDocuments]),
      kind: "rerank",
      maxDocuments: e.max_documents ?? 1000,
      prices,
      perSearchString: e.pricing.per_search === undefined ? null : str(e.pricing.per_search),
    };
  },
};

type ModelConfig = { id: string; name?: string; description?: string; endpoints: Array<{ provider: string; model: string }> };

/** The media models of a configuration: the default ones whose providers are active, then gateway.yaml's (which replace a default of the same id). */
export function buildMediaCatalog(config: MediaConfig, created = Math.floor(Date.now() / 1000)): MediaCatalog {
  const providers = mediaProviders(config);
  const own = new Set(MEDIA_KINDS.flatMap((kind) => config[LIST_OF[kind]].map((m) => m.id)));
  const lists = new Map<MediaKind, Map<string, MediaModel>>();
  const kinds = new Map<string, MediaKind>();
  for (const kind of MEDIA_KINDS) {
    const models = new Map<string, MediaModel>();
    const add = (m: ModelConfig, isDefault: boolean) => {
      const endpoints = m.endpoints.flatMap((e) => {
        const provider = providers.get(e.provider);
        return provider ? [ENDPOINT_OF[kind](m.id, e as never, provider) as MediaEndpoint] : [];
      });
      // a default model shows only while its provider is active
      if (isDefault && endpoints.length === 0) return;
      models.set(m.id, { id: m.id, name: m.name ?? m.id, description: m.description ?? "", created, endpoints });
      kinds.set(m.id, kind);
    };
    if (config.catalog.default) for (const m of DEFAULT_MEDIA_MODELS[LIST_OF[kind]] as ModelConfig[]) if (!own.has(m.id)) add(m, true);
    for (const m of config[LIST_OF[kind]] as ModelConfig[]) add(m, false);
    lists.set(kind, models);
  }
  return {
    models: (kind) => [...lists.get(kind)!.values()] as never,
    get: (kind, id) => lists.get(kind)!.get(id) as never,
    kindOf: (id) => kinds.get(id),
    provider: (slug) => providers.get(slug),
    providers: () => [...providers.values()],
  };
}

const built = new WeakMap<object, MediaCatalog>();

/** The media catalog of a configuration, built once per configuration object (a reload brings a new one). */
export function mediaCatalogOf(config: MediaConfig): MediaCatalog {
  let catalog = built.get(config);
  if (!catalog) {
    catalog = buildMediaCatalog(config);
    built.set(config, catalog);
  }
  return catalog;
}
