/** Analytics counters, refused requests and the budget alerts sent: what the analytics API and the console read. */

/** The dimensions a counter row is keyed by (tables/analytics.ts), by column name. */
export type AnalyticsDimensionColumn = "workspace_id" | "key_hash" | "user_id" | "model" | "provider_name" | "finish_reason" | "api_type";

/** The summed columns of a counter row. */
export type AnalyticsSumColumn =
  | "requests"
  | "errors"
  | "cancelled"
  | "byok_requests"
  | "prompt_tokens"
  | "completion_tokens"
  | "reasoning_tokens"
  | "cached_tokens"
  | "usage_nanos"
  | "byok_usage_nanos"
  | "latency_count"
  | "latency_sum_ms"
  | "throughput_tokens"
  | "generation_ms"
  | "media_completions"
  | `lat_${string}`;

export type AnalyticsFilterOp = "eq" | "neq" | "gt" | "gte" | "lt" | "lte" | "in" | "not_in";

/** One condition on a dimension: `values` has one value except for `in` and `not_in` (a list, possibly empty). */
export type AnalyticsFilter = { column: AnalyticsDimensionColumn; op: AnalyticsFilterOp; values: readonly string[] };

/** How rows are bucketed in time: by the UTC hour, day, or ISO week (Monday); null: not at all. */
export type AnalyticsTimeBucket = "hour" | "day" | "week" | null;

export type AnalyticsCounterQuery = {
  /** first hour (ms, a multiple of 3,600,000) and the hour after the last one */
  fromHour: number;
  toHour: number;
  bucket: AnalyticsTimeBucket;
  groupBy: readonly AnalyticsDimensionColumn[];
  filters: readonly AnalyticsFilter[];
  sums: readonly AnalyticsSumColumn[];
  /** at most this many groups are read (the caller learns of more from the count) */
  maxGroups: number;
};

/** One group: its time bucket's first millisecond (null when not bucketed), its dimension values, its sums. */
export type AnalyticsCounterRow = {
  bucket: number | null;
  groups: Partial<Record<AnalyticsDimensionColumn, string>>;
  sums: Partial<Record<AnalyticsSumColumn, number>>;
};

export interface AnalyticsStore {
  /** the counters of an hour range summed per group; groups in no particular order, at most `maxGroups` of them */
  query(query: AnalyticsCounterQuery): Promise<AnalyticsCounterRow[]>;
}

/** A request refused before a generation began (tables/analytics.ts `refused_requests`). */
export type RefusalRecord = {
  id: string;
  createdAt: number;
  status: number;
  errorCode: string;
  reason: string;
  method: string;
  route: string;
  model: string | null;
  keyHash: string | null;
  workspaceId: string | null;
  userId: string | null;
};

/** `from`/`to`: ms, [from, to); `workspaceIds`: only refusals of these workspaces (unknown callers excluded) */
export type RefusalFilter = { workspaceIds?: readonly string[]; keyHash?: string; status?: number; from?: number; to?: number };

export type RefusalCursor = { createdAt: number; id: string };

/** Refusals per key and status over an hour range: `keyHash` and `workspaceId` are "" for unknown callers. */
export type RefusalCount = { keyHash: string; workspaceId: string; status: number; requests: number };

/** What a batch adds to one hour's refusal counter ("" for an unknown key or workspace). */
export type RefusalCounter = { hour: number; workspaceId: string; keyHash: string; status: number; requests: number };

export interface RefusalStore {
  /** stores refusals and adds to hourly counters (which may count more refusals than the rows), in one transaction */
  record(rows: readonly RefusalRecord[], counters: readonly RefusalCounter[]): Promise<void>;
  /** newest first (ties by id, descending), those before `before` when given */
  list(filter: RefusalFilter, before: RefusalCursor | null, limit: number): Promise<RefusalRecord[]>;
  /** the counters of an hour range, summed per key and status */
  counts(query: { fromHour: number; toHour: number; workspaceIds?: readonly string[] }): Promise<RefusalCount[]>;
  /** deletes refusals older than `before` (the counters stay); how many */
  purge(before: number): Promise<number>;
}

/** A budget alert: who, which window and threshold (the fraction as text, e.g. "0.8"). */
export type BudgetAlertRecord = {
  scope: "key" | "workspace_budget";
  subjectId: string;
  interval: string;
  windowKey: string;
  threshold: string;
  createdAt: number;
};

export interface BudgetAlertStore {
  /** records the alert unless it was already; true when this call recorded it (and so should send it) */
  claim(alert: BudgetAlertRecord): Promise<boolean>;
  /** the alerts of subjects recorded since `since`, newest first */
  recent(since: number, limit: number): Promise<BudgetAlertRecord[]>;
}
