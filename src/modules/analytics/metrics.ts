import { LATENCY_BUCKET_BOUNDS_MS, LATENCY_COLUMNS } from "../../store/latency-buckets";
import type { AnalyticsSumColumn } from "../../store/store";

/**
 * The metrics the analytics API answers, by OpenRouter's names (its analytics reference, the
 * `/analytics/meta` of openrouter.ai), each computed from the sums of the hourly counters. Two are
 * the gateway's own, for what OpenRouter's list has no name for: `error_count` and `error_rate`
 * (generations that ended in an error; a failed generation is also a request, with cost 0), and
 * `p95_latency` beside OpenRouter's p50/p90/p99, and `media_completions` (the records'
 * num_media_completion summed: the images image generations returned).
 */
export type DisplayFormat = "number" | "currency" | "percent" | "latency" | "throughput";

export type Sums = Partial<Record<AnalyticsSumColumn, number>>;

export type MetricDefinition = {
  name: string;
  displayLabel: string;
  isRate: boolean;
  displayFormat: DisplayFormat;
  /** the counter sums it is computed from */
  sums: readonly AnalyticsSumColumn[];
  /** its value from the summed counters; null when there is nothing to compute it from (no latency recorded) */
  value: (s: Sums) => number | null;
};

const NANOS_PER_USD = 1e9;
const of = (s: Sums, c: AnalyticsSumColumn) => s[c] ?? 0;
const usd = (nanos: number) => nanos / NANOS_PER_USD;
const ratio = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 1e6) / 1e6);

/**
 * The latency at quantile `q` (0..1) from the summed histogram: the bucket the q-th generation
 * falls in, linearly interpolated between its bounds (the last bucket, open above, answers its
 * lower bound). An estimate within one bucket's width, rounded to the millisecond.
 */
export function latencyQuantile(s: Sums, q: number): number | null {
  const counts = LATENCY_COLUMNS.map((c) => of(s, c as AnalyticsSumColumn));
  const total = counts.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const target = q * total;
  let before = 0;
  for (let i = 0; i < counts.length; i++) {
    const n = counts[i]!;
    if (n > 0 && before + n >= target) {
      const lower = i === 0 ? 0 : LATENCY_BUCKET_BOUNDS_MS[i - 1]!;
      const upper = LATENCY_BUCKET_BOUNDS_MS[i];
      if (upper === undefined) return lower;
      return Math.round(lower + ((upper - lower) * Math.max(0, target - before)) / n);
    }
    before += n;
  }
  return LATENCY_BUCKET_BOUNDS_MS.at(-1)!;
}

const HISTOGRAM = LATENCY_COLUMNS as readonly AnalyticsSumColumn[];

const count = (name: string, displayLabel: string, column: AnalyticsSumColumn): MetricDefinition => ({
  name,
  displayLabel,
  isRate: false,
  displayFormat: "number",
  sums: [column],
  value: (s) => of(s, column),
});

const quantile = (name: string, displayLabel: string, q: number): MetricDefinition => ({
  name,
  displayLabel,
  isRate: true,
  displayFormat: "latency",
  sums: HISTOGRAM,
  value: (s) => latencyQuantile(s, q),
});

export const METRICS: readonly MetricDefinition[] = [
  count("request_count", "Request Count", "requests"),
  count("byok_request_count", "BYOK Request Count", "byok_requests"),
  {
    name: "tokens_total",
    displayLabel: "Total Tokens",
    isRate: false,
    displayFormat: "number",
    sums: ["prompt_tokens", "completion_tokens"],
    value: (s) => of(s, "prompt_tokens") + of(s, "completion_tokens"),
  },
  count("tokens_prompt", "Prompt Tokens", "prompt_tokens"),
  count("tokens_completion", "Completion Tokens", "completion_tokens"),
  count("reasoning_tokens", "Reasoning Tokens", "reasoning_tokens"),
  count("cached_tokens", "Cached Tokens", "cached_tokens"),
  {
    name: "total_usage",
    displayLabel: "Total Usage",
    isRate: false,
    displayFormat: "currency",
    sums: ["usage_nanos", "byok_usage_nanos"],
    value: (s) => usd(of(s, "usage_nanos") + of(s, "byok_usage_nanos")),
  },
  {
    name: "byok_usage",
    displayLabel: "BYOK Usage",
    isRate: false,
    displayFormat: "currency",
    sums: ["byok_usage_nanos"],
    value: (s) => usd(of(s, "byok_usage_nanos")),
  },
  {
    name: "credits_usage",
    displayLabel: "Credits Usage",
    isRate: false,
    displayFormat: "currency",
    sums: ["usage_nanos"],
    value: (s) => usd(of(s, "usage_nanos")),
  },
  {
    name: "avg_latency",
    displayLabel: "Average Latency",
    isRate: true,
    displayFormat: "latency",
    sums: ["latency_sum_ms", "latency_count"],
    value: (s) => (of(s, "latency_count") === 0 ? null : Math.round(of(s, "latency_sum_ms") / of(s, "latency_count"))),
  },
  quantile("p50_latency", "P50 Latency", 0.5),
  quantile("p90_latency", "P90 Latency", 0.9),
  quantile("p95_latency", "P95 Latency", 0.95),
  quantile("p99_latency", "P99 Latency", 0.99),
  {
    name: "avg_throughput",
    displayLabel: "Average Throughput",
    isRate: true,
    displayFormat: "throughput",
    sums: ["throughput_tokens", "generation_ms"],
    value: (s) => (of(s, "generation_ms") === 0 ? null : Math.round((of(s, "throughput_tokens") / of(s, "generation_ms")) * 1000 * 10) / 10),
  },
  {
    name: "cache_hit_rate",
    displayLabel: "Cache Hit Rate",
    isRate: true,
    displayFormat: "percent",
    sums: ["cached_tokens", "prompt_tokens"],
    value: (s) => ratio(of(s, "cached_tokens"), of(s, "prompt_tokens")),
  },
  count("media_completions", "Media Completions", "media_completions"),
  count("error_count", "Error Count", "errors"),
  {
    name: "error_rate",
    displayLabel: "Error Rate",
    isRate: true,
    displayFormat: "percent",
    sums: ["errors", "requests"],
    value: (s) => ratio(of(s, "errors"), of(s, "requests")),
  },
];

export const METRIC_BY_NAME: ReadonlyMap<string, MetricDefinition> = new Map(METRICS.map((m) => [m.name, m]));
