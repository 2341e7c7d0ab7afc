import { decimalToNanos } from "../billing/money";
import type { Config } from "../config";
import type { ProviderConfig, VideoEndpointConfig, VideoModelConfig } from "../config-schema";
import type { VideoApi } from "./adapters/adapter";
import { sizeFits, sizesToDeriveFrom } from "./adapters/size";
import { API_CARRIES, isVideoApi } from "./video-api";

/** What one video endpoint accepts; absent lists mean the field is not accepted at all. */
export type VideoCapabilities = {
  durations: readonly number[];
  resolutions: readonly string[];
  aspectRatios: readonly string[];
  sizes: readonly string[];
  frameImages: readonly ("first_frame" | "last_frame")[];
  /** the endpoint's API takes input_references */
  inputReferences: boolean;
  generateAudio: boolean;
  seed: boolean;
  passthrough: readonly string[];
};

/** Nano-dollars per output second (without / with audio) and per video. */
export type VideoPrices = { perSecond: number; perSecondAudio: number; perVideo: number };

export type VideoProvider = {
  slug: string;
  name: string;
  api: VideoApi;
  baseUrl: string;
  apiKey?: string;
  headers: Readonly<Record<string, string>>;
  /** gateway.yaml `zdr` and `data_collection`, which guardrails' data policy reads as for chat providers */
  zdr: boolean;
  dataCollection: "allow" | "deny";
};

export type VideoEndpoint = {
  /** `<provider slug>/<upstream model>` */
  id: string;
  modelId: string;
  provider: VideoProvider;
  upstreamModel: string;
  capabilities: VideoCapabilities;
  prices: VideoPrices;
  /** every price is 0: guardrails' free-model rules apply to it */
  free: boolean;
  /** the prices as configured (USD strings), for pricing_skus */
  pricingStrings: Readonly<Record<string, string>>;
};

export type VideoCatalogModel = {
  id: string;
  name: string;
  description?: string;
  huggingFaceId: string | null;
  created: number;
  endpoints: readonly VideoEndpoint[];
};

export type VideoCatalog = {
  get(id: string): VideoCatalogModel | undefined;
  models(): readonly VideoCatalogModel[];
  endpoint(id: string): VideoEndpoint | undefined;
};

/** What any of `endpoints` takes of one capability, each value once, in endpoint order. */
export const capabilityUnion = <T>(endpoints: readonly VideoEndpoint[], pick: (c: VideoCapabilities) => readonly T[]): T[] => [
  ...new Set(endpoints.flatMap((e) => pick(e.capabilities))),
];

function videoProvider(p: ProviderConfig & { api: VideoApi }): VideoProvider {
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

/** Of the configured ratios and resolutions, those the API can make: for one that takes only a size, those some size of it has. */
function makeableShapes(api: VideoApi, configured: { aspectRatios: readonly string[]; resolutions: readonly string[] }, sizes: readonly string[]) {
  if (API_CARRIES[api].shape !== "size") return configured;
  const from = sizesToDeriveFrom(sizes);
  return {
    aspectRatios: configured.aspectRatios.filter((aspectRatio) => from.some((size) => sizeFits(size, { aspectRatio }))),
    resolutions: configured.resolutions.filter((resolution) => from.some((size) => sizeFits(size, { resolution }))),
  };
}

function capabilitiesOf(e: VideoEndpointConfig, api: VideoApi): VideoCapabilities {
  const carries = API_CARRIES[api];
  const sizes = e.supported_sizes ?? [];
  return {
    durations: e.supported_durations,
    ...makeableShapes(api, { aspectRatios: e.supported_aspect_ratios ?? [], resolutions: e.supported_resolutions ?? [] }, sizes),
    sizes,
    // only what the API can carry is advertised, whatever the configuration lists
    frameImages: (e.supported_frame_images ?? []).filter((f) => f !== "last_frame" || carries.lastFrame),
    inputReferences: carries.inputReferences,
    generateAudio: e.generate_audio ?? false,
    seed: e.seed ?? false,
    passthrough: e.allowed_passthrough_parameters ?? [],
  };
}

function endpointOf(m: VideoModelConfig, e: VideoEndpointConfig, provider: VideoProvider): VideoEndpoint {
  const pricing = e.pricing ?? {};
  const perSecond = decimalToNanos(pricing.per_second);
  const prices = {
    perSecond,
    perSecondAudio: pricing.per_second_audio === undefined ? perSecond : decimalToNanos(pricing.per_second_audio),
    perVideo: decimalToNanos(pricing.per_video),
  };
  return {
    id: `${provider.slug}/${e.model}`,
    modelId: m.id,
    provider,
    upstreamModel: e.model,
    capabilities: capabilitiesOf(e, provider.api),
    prices,
    free: Object.values(prices).every((nanos) => nanos === 0),
    pricingStrings: Object.fromEntries(Object.entries(pricing).map(([k, v]) => [k, String(v)])),
  };
}

/** The video models of gateway.yaml over its video providers (validated by loadConfig). */
export function buildVideoCatalog(config: Pick<Config, "providers" | "videoModels">, created = Math.floor(Date.now() / 1000)): VideoCatalog {
  const providers = new Map<string, VideoProvider>();
  for (const p of config.providers) if (isVideoApi(p.api)) providers.set(p.slug, videoProvider(p as ProviderConfig & { api: VideoApi }));
  const models = new Map<string, VideoCatalogModel>();
  const endpoints = new Map<string, VideoEndpoint>();
  for (const m of config.videoModels) {
    const list = m.endpoints.flatMap((e) => {
      const provider = providers.get(e.provider);
      return provider ? [endpointOf(m, e, provider)] : [];
    });
    for (const e of list) endpoints.set(e.id, e);
    models.set(m.id, { id: m.id, name: m.name ?? m.id, description: m.description, huggingFaceId: m.hugging_face_id ?? null, created, endpoints: list });
  }
  return { get: (id) => models.get(id), models: () => [...models.values()], endpoint: (id) => endpoints.get(id) };
}
