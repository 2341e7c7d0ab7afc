// Hand-built catalog objects and fakes for the routing unit tests.
import { priceTable } from "../../../src/catalog/build-catalog";
import type { EndpointStats, Percentiles } from "../../../src/catalog/live-stats";
import type { CatalogEndpoint, CatalogModel, ProviderEntry } from "../../../src/catalog/types";
import type { Health } from "../../../src/gateway/routing/circuit";
import type { FilterContext } from "../../../src/gateway/routing/filters";
import type { OrderContext } from "../../../src/gateway/routing/order";
import type { PlanInput } from "../../../src/gateway/routing/plan";

export type EndpointSpec = {
  provider: string;
  name?: string;
  model?: string;
  /** USD per token as decimal strings, like gateway.yaml */
  prompt?: string;
  completion?: string;
  image?: string;
  request?: string;
  contextLength?: number;
  quantization?: string | null;
  supportedParameters?: string[];
  zdr?: boolean;
  dataCollection?: "allow" | "deny";
  apiKey?: string | null;
};

export function provider(slug: string, o: Partial<ProviderEntry> = {}): ProviderEntry {
  return {
    slug,
    name: slug.toUpperCase(),
    api: "openai-chat",
    baseUrl: `http://127.0.0.1:1/${slug}`,
    apiKey: `key-${slug}`,
    headers: {},
    zdr: false,
    dataCollection: "allow",
    ...o,
  };
}

export function endpoint(spec: EndpointSpec, modelId = "m/one"): CatalogEndpoint {
  const upstream = spec.model ?? "up";
  const apiKey = spec.apiKey === null ? undefined : (spec.apiKey ?? `key-${spec.provider}`);
  const pricing = { prompt: spec.prompt ?? "0.000001", completion: spec.completion ?? "0.000002", image: spec.image, request: spec.request };
  return {
    id: `${spec.provider}/${upstream}`,
    modelId,
    provider: provider(spec.provider, {
      name: spec.name ?? spec.provider.toUpperCase(),
      apiKey,
      zdr: spec.zdr ?? false,
      dataCollection: spec.dataCollection ?? "allow",
    }),
    upstreamModel: upstream,
    pricing: priceTable(pricing),
    pricingStrings: {},
    contextLength: spec.contextLength ?? 8_000,
    maxCompletionTokens: null,
    quantization: spec.quantization === undefined ? null : spec.quantization,
    supportedParameters: spec.supportedParameters ?? ["max_tokens", "temperature", "tools"],
  };
}

export function model(id: string, specs: EndpointSpec[], inputModalities = ["text"]): CatalogModel {
  return {
    id,
    name: id,
    description: "",
    contextLength: 8_000,
    inputModalities,
    outputModalities: ["text"],
    endpoints: specs.map((s) => endpoint(s, id)),
    created: 0,
  };
}

export const ids = (xs: Array<{ id: string }>) => xs.map((x) => x.id);

export const noStats: EndpointStats = {
  latencyLast30m: null,
  throughputLast30m: null,
  uptimeLast5m: null,
  uptimeLast30m: null,
  uptimeLast1d: null,
  requestsLast30m: 0,
};

const flat = (v: number): Percentiles => ({ p50: v, p75: v, p90: v, p99: v });

/** Fake live figures: latency p50 (ms), throughput p50 (tokens/s), uptime (%) per endpoint id. */
export function fakeStats(figures: Record<string, { latency?: number; throughput?: number; uptime?: number; latencyP?: Percentiles }>) {
  return (id: string): EndpointStats => {
    const f = figures[id];
    if (!f) return noStats;
    return {
      ...noStats,
      latencyLast30m: f.latencyP ?? (f.latency === undefined ? null : flat(f.latency)),
      throughputLast30m: f.throughput === undefined ? null : flat(f.throughput),
      uptimeLast30m: f.uptime ?? null,
      requestsLast30m: 10,
    };
  };
}

export function fakeHealth(states: Record<string, Health> = {}) {
  return (id: string): Health => states[id] ?? "healthy";
}

/** A random source that returns the scripted values in turn (then repeats the last). */
export function scripted(values: number[]): () => number {
  let i = 0;
  return () => values[Math.min(i++, values.length - 1)]!;
}

export function filterCtx(o: Partial<FilterContext> = {}): FilterContext {
  return {
    prefs: {},
    sentParameters: [],
    estimatedPromptTokens: 10,
    requestedOutputTokens: 0,
    modalities: new Set(["text"]),
    hasCredentials: (e) => !!e.provider.apiKey,
    ...o,
  };
}

export function orderCtx(o: Partial<OrderContext> = {}): OrderContext {
  return { prefs: {}, workspaceSort: null, stats: () => noStats, health: fakeHealth(), random: () => 0.5, ...o };
}

export function planInput(models: CatalogModel[], o: Partial<PlanInput> = {}): PlanInput {
  return {
    models,
    requested: models[0]?.id ?? "m/none",
    prefs: {},
    sentParameters: [],
    estimatedPromptTokens: 10,
    requestedOutputTokens: 0,
    modalities: new Set(["text"]),
    credentials: (e) => (e.provider.apiKey ? [{ apiKey: e.provider.apiKey, isByok: false }] : []),
    workspaceSort: null,
    stats: () => noStats,
    health: fakeHealth(),
    random: () => 0,
    ...o,
  };
}
