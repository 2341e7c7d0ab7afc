import type { EndpointStats, Percentiles } from "../../catalog/live-stats";
import type { CatalogEndpoint } from "../../catalog/types";
import type { Health } from "./circuit";
import { type PercentileThresholds, type ProviderPreferences, type SortBy, sortOf, thresholds } from "./preferences";

export type OrderContext = {
  prefs: ProviderPreferences;
  workspaceSort: string | null;
  stats: (endpointId: string) => EndpointStats;
  health: (endpointId: string) => Health;
  sessionEndpoint?: string;
  random: () => number;
};

const norm = (s: string) => s.toLowerCase();

function orderIndex(e: CatalogEndpoint, order: string[]): number {
  const i = order.findIndex((o) => norm(o) === norm(e.provider.slug) || norm(o) === norm(e.provider.name));
  return i === -1 ? Number.POSITIVE_INFINITY : i;
}

const unitPrice = (e: CatalogEndpoint) => e.pricing.prompt + e.pricing.completion;

/** Sort key (lower first); endpoints with no figures yet go after those with figures. */
function sortKey(by: SortBy, s: EndpointStats, e: CatalogEndpoint): number {
  switch (by) {
    case "price":
      return unitPrice(e);
    case "latency":
      return s.latencyLast30m?.p50 ?? Number.POSITIVE_INFINITY;
    case "throughput":
      return s.throughputLast30m ? -s.throughputLast30m.p50 : Number.POSITIVE_INFINITY;
    case "exacto":
      return s.uptimeLast30m === null ? Number.POSITIVE_INFINITY : -s.uptimeLast30m;
  }
}

/**
 * Price-weighted random order (OpenRouter's default load balancing): each pick weighs an
 * endpoint by the inverse square of its price, so cheaper endpoints get most traffic.
 */
function weightedShuffle(endpoints: CatalogEndpoint[], random: () => number): CatalogEndpoint[] {
  const pool = [...endpoints];
  const out: CatalogEndpoint[] = [];
  // free endpoints weigh as if they cost a tenth of the cheapest paid one (1/p² is unbounded at 0)
  const paid = pool.map(unitPrice).filter((p) => p > 0);
  const floor = paid.length ? Math.min(...paid) / 10 : 1;
  while (pool.length) {
    const weights = pool.map((e) => 1 / Math.max(unitPrice(e), floor) ** 2);
    const total = weights.reduce((a, b) => a + b, 0);
    let r = random() * total;
    let i = 0;
    for (; i < pool.length - 1; i++) {
      r -= weights[i]!;
      if (r < 0) break;
    }
    out.push(pool.splice(i, 1)[0]!);
  }
  return out;
}

function exceeds(p: Percentiles | null, limits: PercentileThresholds | null, scale: number, above: boolean): boolean {
  if (!p || !limits) return false;
  return (["p50", "p75", "p90", "p99"] as const).some((q) => {
    const limit = limits[q];
    if (limit === undefined || limit === null) return false;
    return above ? p[q] > limit * scale : p[q] < limit * scale;
  });
}

/** Stable partition: endpoints passing `front` keep their order ahead of the rest. */
function partition<T>(items: T[], front: (t: T) => boolean): T[] {
  return [...items.filter(front), ...items.filter((t) => !front(t))];
}

/**
 * The try order of one group of endpoints: `order` first (and only, without fallbacks), else
 * the sort, else price-weighted random; slow endpoints (preferred_max_latency /
 * preferred_min_throughput) after the others; the session's endpoint first when healthy (not
 * with `order`); open circuits last.
 */
export function orderEndpoints(endpoints: CatalogEndpoint[], ctx: OrderContext): CatalogEndpoint[] {
  const { prefs } = ctx;
  const allowFallbacks = prefs.allow_fallbacks !== false;
  const maxLatency = thresholds(prefs.preferred_max_latency);
  const minThroughput = thresholds(prefs.preferred_min_throughput);
  const slowLast = (list: CatalogEndpoint[]) =>
    maxLatency || minThroughput
      ? partition(list, (e) => {
          const s = ctx.stats(e.id);
          // latency thresholds are in seconds, figures in milliseconds
          return !exceeds(s.latencyLast30m, maxLatency, 1000, true) && !exceeds(s.throughputLast30m, minThroughput, 1, false);
        })
      : list;
  let ordered: CatalogEndpoint[];
  if (prefs.order?.length) {
    // an explicit order is kept as given: speed preferences only rearrange the fallbacks, and
    // the session's endpoint does not jump it (as on OpenRouter)
    const order = prefs.order;
    const preferred = endpoints.filter((e) => orderIndex(e, order) !== Number.POSITIVE_INFINITY).sort((a, b) => orderIndex(a, order) - orderIndex(b, order));
    const rest = endpoints.filter((e) => orderIndex(e, order) === Number.POSITIVE_INFINITY);
    ordered = allowFallbacks ? [...preferred, ...slowLast(weightedShuffle(rest, ctx.random))] : preferred;
  } else {
    const { by } = sortOf(prefs, ctx.workspaceSort);
    ordered = slowLast(
      by
        ? [...endpoints]
            .map((e) => ({ e, k: sortKey(by, ctx.stats(e.id), e) }))
            .sort((a, b) => (a.k === b.k ? 0 : a.k - b.k))
            .map((x) => x.e)
        : weightedShuffle(endpoints, ctx.random),
    );
    // the session's endpoint keeps its prompt cache warm, so it beats speed preferences
    const session = ctx.sessionEndpoint;
    if (session) ordered = partition(ordered, (e) => e.id === session && ctx.health(e.id) === "healthy");
  }
  ordered = partition(ordered, (e) => ctx.health(e.id) !== "open");
  if (!allowFallbacks && !prefs.order?.length) ordered = ordered.slice(0, 1);
  return ordered;
}
