import { GatewayError } from "../../errors";
import type { AnalyticsCounterQuery, AnalyticsSumColumn, Store } from "../../store/store";
import { DIMENSIONS, GRANULARITIES, OPERATORS } from "./dimensions";
import { dimensionLabels } from "./labels";
import { METRICS } from "./metrics";
import type { AnalyticsMetaOut, AnalyticsQueryInput, AnalyticsQueryOut } from "./model";
import { type AnalyticsPlan, type AnalyticsScope, planQuery } from "./plan";
import { mergedGroups, shapedRows } from "./rows";

export type AnalyticsDeps = { store: Store; clock: () => number; generations?: { settled(): Promise<void> } };

/** More groups than this in one query's counters is a 400 that asks for a narrower query, not an answer read whole into memory. */
export const MAX_COUNTER_GROUPS = 100_000;

/** What the query endpoint answers to: OpenRouter's `GET /analytics/meta`. */
export function analyticsMeta(): AnalyticsMetaOut {
  return {
    data: {
      metrics: METRICS.map((m) => ({ name: m.name, display_label: m.displayLabel, is_rate: m.isRate, display_format: m.displayFormat })),
      dimensions: DIMENSIONS.map((d) => ({ name: d.name, display_label: d.displayLabel })),
      operators: OPERATORS.map((o) => ({ name: o.name, value_type: o.value_type })),
      granularities: GRANULARITIES.map((g) => ({ name: g.name, display_label: g.displayLabel })),
    },
  };
}

/** What a plan reads of the counters: months are read by day and merged (rows.ts); request_count is always summed, to order by. */
export function counterQuery(plan: AnalyticsPlan): AnalyticsCounterQuery {
  const sums = new Set<AnalyticsSumColumn>(["requests"]);
  for (const m of plan.metrics) for (const s of m.sums) sums.add(s);
  return {
    fromHour: plan.fromHour,
    toHour: plan.toHour,
    bucket: plan.granularity === "month" ? "day" : plan.granularity,
    groupBy: plan.dimensions.map((d) => d.column),
    filters: plan.filters,
    sums: [...sums],
    maxGroups: MAX_COUNTER_GROUPS + 1,
  };
}

/**
 * OpenRouter's `POST /analytics/query` over the hourly counters: the plan (plan.ts) picks the
 * hours, filters, groups and sums; the counters answer through their indexes; the rows are
 * merged (days into months), computed (metrics.ts), labelled (labels.ts), ordered and cut here.
 */
export async function queryAnalytics(deps: AnalyticsDeps, body: AnalyticsQueryInput, scope: AnalyticsScope = {}): Promise<AnalyticsQueryOut> {
  const started = performance.now();
  const plan = await planQuery(deps, body, scope);
  await deps.generations?.settled();
  const counters = await deps.store.analytics.query(counterQuery(plan));
  if (counters.length > MAX_COUNTER_GROUPS)
    throw new GatewayError(400, "The query reaches more than 100,000 groups: narrow the time range, use a coarser granularity or fewer dimensions", {
      field: "time_range",
    });
  const groups = mergedGroups(plan, counters);
  const label = await dimensionLabels(deps.store, plan.dimensions, (name) => {
    const i = plan.dimensions.findIndex((d) => d.name === name);
    return groups.map((g) => g.groups[i]!);
  });
  const { rows, truncated } = shapedRows(plan, groups, label);
  return {
    data: {
      data: rows,
      metadata: { query_time_ms: Math.round(performance.now() - started), row_count: rows.length, truncated },
      ...(plan.warnings.length > 0 ? { warnings: plan.warnings } : {}),
    },
  };
}
