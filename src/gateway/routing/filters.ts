import type { CatalogEndpoint, CatalogModel } from "../../catalog/types";
import type { ProviderPreferences } from "./preferences";

export type FilterContext = {
  prefs: ProviderPreferences;
  sentParameters: string[];
  estimatedPromptTokens: number;
  requestedOutputTokens: number;
  modalities: Set<string>;
  hasCredentials: (endpoint: CatalogEndpoint) => boolean;
};

export type Removal = { endpoint: string; filter: string; detail?: string };

const norm = (s: string) => s.toLowerCase();

function matchesProvider(endpoint: CatalogEndpoint, names: string[]): boolean {
  const wanted = new Set(names.map(norm));
  return wanted.has(norm(endpoint.provider.slug)) || wanted.has(norm(endpoint.provider.name));
}

function toNumber(v: number | string | null | undefined): number | null {
  if (v === undefined || v === null || v === "") return null;
  const n = typeof v === "number" ? v : Number(v);
  return Number.isFinite(n) ? n : null;
}

/** Endpoint price in USD per 1M tokens (prompt/completion) or per unit (image/request). */
function usdPer(endpoint: CatalogEndpoint, field: "prompt" | "completion" | "image" | "request"): number {
  const nanos = endpoint.pricing[field];
  return field === "prompt" || field === "completion" ? (nanos * 1_000_000) / 1e9 : nanos / 1e9;
}

/**
 * Each check returns why the endpoint must go, or null to keep it. Order matters only for the
 * reason reported: the first failing check names the filter.
 */
const checks: Array<[string, (e: CatalogEndpoint, m: CatalogModel, c: FilterContext) => string | null]> = [
  ["provider.only", (e, _m, c) => (c.prefs.only?.length && !matchesProvider(e, c.prefs.only) ? `not in [${c.prefs.only.join(", ")}]` : null)],
  ["provider.ignore", (e, _m, c) => (c.prefs.ignore?.length && matchesProvider(e, c.prefs.ignore) ? "ignored" : null)],
  ["provider.zdr", (e, _m, c) => (c.prefs.zdr && !e.provider.zdr ? "not zero-data-retention" : null)],
  ["provider.data_collection", (e, _m, c) => (c.prefs.data_collection === "deny" && e.provider.dataCollection !== "deny" ? "may collect data" : null)],
  [
    "provider.quantizations",
    (e, _m, c) =>
      c.prefs.quantizations?.length && !c.prefs.quantizations.includes(e.quantization ?? "unknown") ? `quantization ${e.quantization ?? "unknown"}` : null,
  ],
  [
    "provider.max_price",
    (e, _m, c) => {
      const max = c.prefs.max_price;
      if (!max) return null;
      for (const field of ["prompt", "completion", "image", "request"] as const) {
        const limit = toNumber(max[field]);
        if (limit !== null && usdPer(e, field) > limit) return `${field} price ${usdPer(e, field)} > ${limit}`;
      }
      return null;
    },
  ],
  [
    "provider.require_parameters",
    (e, _m, c) => {
      if (!c.prefs.require_parameters) return null;
      const missing = c.sentParameters.filter((p) => !e.supportedParameters.includes(p));
      return missing.length ? `does not support ${missing.join(", ")}` : null;
    },
  ],
  [
    "context_length",
    (e, _m, c) => {
      const need = c.estimatedPromptTokens + c.requestedOutputTokens;
      return need > e.contextLength ? `needs ~${need} tokens, has ${e.contextLength}` : null;
    },
  ],
  [
    "input_modalities",
    (_e, m, c) => {
      const missing = [...c.modalities].filter((x) => !m.inputModalities.includes(x));
      return missing.length ? `no ${missing.join(", ")} input` : null;
    },
  ],
  [
    "credentials",
    (e, _m, c) =>
      c.hasCredentials(e) ? null : `no usable credentials: set ${e.provider.envVar ?? `api_key for provider ${e.provider.slug}`} or add a BYOK credential`,
  ],
];

export function filterEndpoints(model: CatalogModel, ctx: FilterContext, removed: Removal[]): CatalogEndpoint[] {
  const kept: CatalogEndpoint[] = [];
  outer: for (const e of model.endpoints) {
    for (const [filter, check] of checks) {
      const why = check(e, model, ctx);
      if (why !== null) {
        removed.push({ endpoint: e.id, filter, detail: why });
        continue outer;
      }
    }
    kept.push(e);
  }
  return kept;
}

/** "provider.only removed a/x (not in [b]); credentials removed c/y (...)" */
export function describeRemovals(removed: Removal[]): string {
  return removed.map((r) => `${r.filter} removed ${r.endpoint}${r.detail ? ` (${r.detail})` : ""}`).join("; ");
}
