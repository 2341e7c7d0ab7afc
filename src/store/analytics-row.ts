import { LATENCY_COLUMNS, latencyBucket } from "./latency-buckets";
import type { GenerationRecord } from "./store";

export const HOUR_MS = 3_600_000;

/**
 * What one generation adds to its hour's analytics counters (tables/analytics.ts), the same for
 * both dialects' commits: the row it lands in and the amounts. A failed generation counts as a
 * request with cost 0; one cancelled by its client counts in `cancelled`, not in `errors`.
 */
export type AnalyticsFacts = {
  hour: number;
  workspaceId: string;
  keyHash: string;
  userId: string;
  model: string;
  providerName: string;
  finishReason: string;
  apiType: string;
  errors: 0 | 1;
  cancelled: 0 | 1;
  byokRequests: 0 | 1;
  promptTokens: number;
  completionTokens: number;
  reasoningTokens: number;
  cachedTokens: number;
  usageNanos: number;
  byokUsageNanos: number;
  latencyCount: 0 | 1;
  latencySumMs: number;
  throughputTokens: number;
  generationMs: number;
  mediaCompletions: number;
  /** the latency histogram's bucket, or -1 without a latency */
  bucket: number;
};

const flag = (b: boolean): 0 | 1 => (b ? 1 : 0);

export function analyticsFacts(r: GenerationRecord): AnalyticsFacts {
  const timed = r.generationTimeMs !== null && r.generationTimeMs > 0 && r.tokensCompletion !== null;
  return {
    hour: r.createdAt - (r.createdAt % HOUR_MS),
    workspaceId: r.workspaceId,
    keyHash: r.keyHash,
    userId: r.userId ?? "",
    model: r.model,
    providerName: r.providerName ?? "",
    finishReason: r.finishReason ?? "",
    apiType: r.apiType,
    errors: flag(!r.cancelled && r.finishReason === "error"),
    cancelled: flag(r.cancelled),
    byokRequests: flag(r.isByok),
    promptTokens: r.tokensPrompt ?? 0,
    completionTokens: r.tokensCompletion ?? 0,
    reasoningTokens: r.tokensReasoning ?? 0,
    cachedTokens: r.tokensCached ?? 0,
    usageNanos: r.isByok ? 0 : r.costNanos,
    byokUsageNanos: r.isByok ? r.costNanos : 0,
    latencyCount: flag(r.latencyMs !== null),
    latencySumMs: r.latencyMs ?? 0,
    throughputTokens: timed ? (r.tokensCompletion ?? 0) : 0,
    generationMs: timed ? (r.generationTimeMs ?? 0) : 0,
    mediaCompletions: r.numMediaCompletion ?? 0,
    bucket: r.latencyMs === null ? -1 : latencyBucket(r.latencyMs),
  };
}

/** The summed columns of a counter row, after its eight key columns (histogram last). */
export const ANALYTICS_SUMS = [
  ["requests", () => 1],
  ["errors", (f: AnalyticsFacts) => f.errors],
  ["cancelled", (f: AnalyticsFacts) => f.cancelled],
  ["byok_requests", (f: AnalyticsFacts) => f.byokRequests],
  ["prompt_tokens", (f: AnalyticsFacts) => f.promptTokens],
  ["completion_tokens", (f: AnalyticsFacts) => f.completionTokens],
  ["reasoning_tokens", (f: AnalyticsFacts) => f.reasoningTokens],
  ["cached_tokens", (f: AnalyticsFacts) => f.cachedTokens],
  ["usage_nanos", (f: AnalyticsFacts) => f.usageNanos],
  ["byok_usage_nanos", (f: AnalyticsFacts) => f.byokUsageNanos],
  ["latency_count", (f: AnalyticsFacts) => f.latencyCount],
  ["latency_sum_ms", (f: AnalyticsFacts) => f.latencySumMs],
  ["throughput_tokens", (f: AnalyticsFacts) => f.throughputTokens],
  ["generation_ms", (f: AnalyticsFacts) => f.generationMs],
  ["media_completions", (f: AnalyticsFacts) => f.mediaCompletions],
  ...LATENCY_COLUMNS.map((name, i) => [name, (f: AnalyticsFacts) => (f.bucket === i ? 1 : 0)] as const),
] as const satisfies ReadonlyArray<readonly [string, (f: AnalyticsFacts) => number]>;

export const ANALYTICS_KEY_COLUMNS = ["hour", "workspace_id", "key_hash", "user_id", "model", "provider_name", "finish_reason", "api_type"] as const;

/** A generation's counter row as values: the key columns, then ANALYTICS_SUMS. */
export function analyticsValues(f: AnalyticsFacts): Array<string | number> {
  return [f.hour, f.workspaceId, f.keyHash, f.userId, f.model, f.providerName, f.finishReason, f.apiType, ...ANALYTICS_SUMS.map(([, of]) => of(f))];
}
