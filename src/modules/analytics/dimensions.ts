import type { AnalyticsDimensionColumn } from "../../store/store";

/**
 * The dimensions the analytics API groups and filters by, by OpenRouter's names, and the counter
 * column each reads. Those with an unset bucket ("" in the counters: a key without a user, a
 * generation no provider served, one without a finish reason, a counter from before api_type was
 * counted) take `include_unset` in `in` and
 * `not_in` filters. `api_key_id`, `workspace` and `user` answer names (labels.ts); filters take
 * their ids.
 */
export type DimensionDefinition = { name: string; displayLabel: string; column: AnalyticsDimensionColumn; hasUnset: boolean };

export const DIMENSIONS: readonly DimensionDefinition[] = [
  { name: "model", displayLabel: "Model", column: "model", hasUnset: false },
  { name: "provider", displayLabel: "Provider", column: "provider_name", hasUnset: true },
  { name: "api_key_id", displayLabel: "API Key", column: "key_hash", hasUnset: false },
  { name: "user", displayLabel: "User", column: "user_id", hasUnset: true },
  { name: "workspace", displayLabel: "Workspace", column: "workspace_id", hasUnset: false },
  { name: "finish_reason", displayLabel: "Finish Reason", column: "finish_reason", hasUnset: true },
  // the generation record's api_type (completions, embeddings, video, image, tts, stt, rerank); unset in counters older than it
  { name: "api_type", displayLabel: "API Type", column: "api_type", hasUnset: true },
];

export const DIMENSION_BY_NAME: ReadonlyMap<string, DimensionDefinition> = new Map(DIMENSIONS.map((d) => [d.name, d]));

/** How far a query may reach: a year by day (or coarser), a month by hour. */
export const MAX_RANGE_DAYS = 366;
export const MAX_HOURLY_RANGE_DAYS = 31;
export const MAX_DIMENSIONS = 2;
export const MAX_FILTERS = 20;
export const DEFAULT_LIMIT = 1000;
export const MAX_LIMIT = 10_000;
export const DEFAULT_RANGE_DAYS = 7;

export const GRANULARITIES = [
  { name: "hour", displayLabel: "Hour" },
  { name: "day", displayLabel: "Day" },
  { name: "week", displayLabel: "Week" },
  { name: "month", displayLabel: "Month" },
] as const;

export type Granularity = (typeof GRANULARITIES)[number]["name"];

export const OPERATORS = [
  { name: "eq", value_type: "scalar" },
  { name: "neq", value_type: "scalar" },
  { name: "in", value_type: "array" },
  { name: "not_in", value_type: "array" },
  { name: "gt", value_type: "scalar" },
  { name: "gte", value_type: "scalar" },
  { name: "lt", value_type: "scalar" },
  { name: "lte", value_type: "scalar" },
] as const;
