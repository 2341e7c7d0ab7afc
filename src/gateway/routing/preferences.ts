/** The `provider` routing object of a request (OpenRouter's ProviderPreferences), as validated by the inbound schema. */
export type SortBy = "price" | "throughput" | "latency" | "exacto";

export type PercentileThresholds = { p50?: number | null; p75?: number | null; p90?: number | null; p99?: number | null };

export type ProviderPreferences = {
  order?: string[] | null;
  only?: string[] | null;
  ignore?: string[] | null;
  allow_fallbacks?: boolean | null;
  require_parameters?: boolean | null;
  data_collection?: "allow" | "deny" | null;
  zdr?: boolean | null;
  quantizations?: string[] | null;
  sort?: SortBy | { by?: SortBy | null; partition?: "model" | "none" | null } | null;
  max_price?: {
    prompt?: number | string | null;
    completion?: number | string | null;
    image?: number | string | null;
    audio?: number | string | null;
    request?: number | string | null;
  } | null;
  preferred_max_latency?: number | PercentileThresholds | null;
  preferred_min_throughput?: number | PercentileThresholds | null;
};

export function sortOf(prefs: ProviderPreferences, workspaceDefault: string | null): { by: SortBy | null; partition: "model" | "none" } {
  const s = prefs.sort;
  const fallback = (["price", "throughput", "latency", "exacto"] as const).find((v) => v === workspaceDefault) ?? null;
  if (s === undefined || s === null) return { by: fallback, partition: "model" };
  if (typeof s === "string") return { by: s, partition: "model" };
  return { by: s.by ?? fallback, partition: s.partition ?? "model" };
}

/** Thresholds as {p50..p99}; a bare number means p50. */
export function thresholds(v: number | PercentileThresholds | null | undefined): PercentileThresholds | null {
  if (v === undefined || v === null) return null;
  return typeof v === "number" ? { p50: v } : v;
}
