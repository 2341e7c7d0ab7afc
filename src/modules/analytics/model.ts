import { t } from "elysia";

/** The shapes of OpenRouter's analytics operations (`@openrouter/sdk` 1.3.19: `analytics.getAnalyticsMeta`, `analytics.queryAnalytics`). */

const FilterValue = t.Union([t.String(), t.Number(), t.Array(t.Union([t.String(), t.Number()]), { maxItems: 1000 })]);

export const AnalyticsFilterBody = t.Object({
  field: t.String({ minLength: 1, description: "a dimension (GET /analytics/meta)" }),
  operator: t.String({ minLength: 1, description: "eq, neq, gt, gte, lt, lte (a scalar value), in, not_in (an array)" }),
  value: FilterValue,
  include_unset: t.Optional(t.Boolean({ description: "in / not_in: also rows where the dimension has no value" })),
});

export const AnalyticsQueryBody = t.Object({
  metrics: t.Array(t.String({ minLength: 1 }), { minItems: 1, maxItems: 50, description: "metric names (GET /analytics/meta)" }),
  dimensions: t.Optional(t.Array(t.String({ minLength: 1 }), { maxItems: 2, description: "at most 2 dimensions to group by" })),
  filters: t.Optional(t.Array(AnalyticsFilterBody, { maxItems: 20 })),
  granularity: t.Optional(t.String({ description: "hour (ranges of 31 days at most), day, week (ISO, Mondays) or month; none: totals" })),
  group_limit: t.Optional(t.Integer({ minimum: 1, maximum: 10_000, description: "at most this many rows per combination of dimension values" })),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 10_000, default: 1000 })),
  order_by: t.Optional(
    t.Object({
      field: t.String({ minLength: 1, description: "a requested metric, request_count, a requested dimension, or date" }),
      direction: t.Union([t.Literal("asc"), t.Literal("desc")]),
    }),
  ),
  time_range: t.Optional(
    t.Object({
      start: t.String({ description: "UTC ISO 8601 with seconds; counters are hourly, so the range widens to whole UTC hours" }),
      end: t.String({ description: "UTC ISO 8601 with seconds" }),
    }),
  ),
  classifier_dimensions: t.Optional(t.Unknown({ description: "not supported by this gateway (400)" })),
  classifier_filters: t.Optional(t.Unknown({ description: "not supported by this gateway (400)" })),
});

export const AnalyticsMetaResponse = t.Object({
  data: t.Object({
    metrics: t.Array(
      t.Object({
        name: t.String(),
        display_label: t.String(),
        is_rate: t.Boolean(),
        display_format: t.Union([t.Literal("number"), t.Literal("currency"), t.Literal("percent"), t.Literal("latency"), t.Literal("throughput")]),
      }),
    ),
    dimensions: t.Array(t.Object({ name: t.String(), display_label: t.String() })),
    operators: t.Array(t.Object({ name: t.String(), value_type: t.Union([t.Literal("scalar"), t.Literal("array")]) })),
    granularities: t.Array(t.Object({ name: t.String(), display_label: t.String() })),
  }),
});

/** One row: `date__<granularity>` when bucketed, each requested dimension (labels for api_key_id, workspace, user), each requested metric. */
export const AnalyticsRow = t.Record(t.String(), t.Union([t.String(), t.Number(), t.Null()]));

export const AnalyticsQueryResponse = t.Object({
  data: t.Object({
    data: t.Array(AnalyticsRow),
    metadata: t.Object({ query_time_ms: t.Number(), row_count: t.Integer(), truncated: t.Boolean() }),
    warnings: t.Optional(t.Array(t.String())),
  }),
});

export type AnalyticsQueryInput = typeof AnalyticsQueryBody.static;
export type AnalyticsMetaOut = typeof AnalyticsMetaResponse.static;
export type AnalyticsQueryOut = typeof AnalyticsQueryResponse.static;
export type AnalyticsRowOut = typeof AnalyticsRow.static;
