import { index, int8, integer, millis, primaryKey, table, text } from "./kit";

/**
 * Analytics: counters per UTC hour that the analytics API and the console's charts sum instead of
 * scanning generations, and the requests the gateway refused before any generation began.
 */

/**
 * One row per UTC hour (`hour`: its first millisecond), workspace, key, user, model, provider,
 * finish reason and api_type, added to in the transaction that commits each generation: served, failed (cost 0)
 * or cancelled alike. `user_id`, `provider_name` and `finish_reason` are "" when the record has
 * none. The hour is the generation's creation time, as the generation log's time filters.
 */
export const analyticsHourly = table(
  "analytics_hourly",
  {
    hour: millis("hour").notNull(),
    workspaceId: text("workspace_id").notNull(),
    keyHash: text("key_hash").notNull(),
    userId: text("user_id").notNull(),
    model: text("model").notNull(),
    providerName: text("provider_name").notNull(),
    finishReason: text("finish_reason").notNull(),
    /** the generation's api_type (chat's "completions", "embeddings", "image", "tts", "stt", "rerank", ...); "" in rows counted before it was */
    apiType: text("api_type").notNull().default(""),
    requests: int8("requests").notNull().default(0),
    /** ended by an error (not cancelled), as the generation log's `error` status */
    errors: int8("errors").notNull().default(0),
    cancelled: int8("cancelled").notNull().default(0),
    byokRequests: int8("byok_requests").notNull().default(0),
    promptTokens: int8("prompt_tokens").notNull().default(0),
    completionTokens: int8("completion_tokens").notNull().default(0),
    reasoningTokens: int8("reasoning_tokens").notNull().default(0),
    cachedTokens: int8("cached_tokens").notNull().default(0),
    usageNanos: int8("usage_nanos").notNull().default(0),
    byokUsageNanos: int8("byok_usage_nanos").notNull().default(0),
    /** generations with a latency, and their sum */
    latencyCount: int8("latency_count").notNull().default(0),
    latencySumMs: int8("latency_sum_ms").notNull().default(0),
    /** completion tokens of generations with a generation time, and the sum of those times: the throughput */
    throughputTokens: int8("throughput_tokens").notNull().default(0),
    generationMs: int8("generation_ms").notNull().default(0),
    /** media items returned (the records' num_media_completion: images) */
    mediaCompletions: int8("media_completions").notNull().default(0),
    /** the latency histogram: generations per bucket of LATENCY_BUCKET_BOUNDS_MS */
    lat00: int8("lat_00").notNull().default(0),
    lat01: int8("lat_01").notNull().default(0),
    lat02: int8("lat_02").notNull().default(0),
    lat03: int8("lat_03").notNull().default(0),
    lat04: int8("lat_04").notNull().default(0),
    lat05: int8("lat_05").notNull().default(0),
    lat06: int8("lat_06").notNull().default(0),
    lat07: int8("lat_07").notNull().default(0),
    lat08: int8("lat_08").notNull().default(0),
    lat09: int8("lat_09").notNull().default(0),
    lat10: int8("lat_10").notNull().default(0),
    lat11: int8("lat_11").notNull().default(0),
    lat12: int8("lat_12").notNull().default(0),
    lat13: int8("lat_13").notNull().default(0),
    lat14: int8("lat_14").notNull().default(0),
    lat15: int8("lat_15").notNull().default(0),
    lat16: int8("lat_16").notNull().default(0),
    lat17: int8("lat_17").notNull().default(0),
    lat18: int8("lat_18").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.hour, t.workspaceId, t.keyHash, t.userId, t.model, t.providerName, t.finishReason, t.apiType] }),
    // a member's view (their workspaces) and one key's, each by its hour range
    index("analytics_hourly_workspace").on(t.workspaceId, t.hour),
    index("analytics_hourly_key").on(t.keyHash, t.hour),
  ],
);

/**
 * Requests refused before a generation began (401, 402, 413, 429, 503 and the like), written in
 * batches after their answers left (telemetry's refusal recorder), never on a request's way.
 * `key_hash`, `workspace_id` and `user_id` are null when the caller was not known (a wrong key).
 */
export const refusedRequests = table(
  "refused_requests",
  {
    id: text("id").primaryKey(),
    createdAt: millis("created_at").notNull(),
    status: integer("status").notNull(),
    /** a short name of the cause: invalid_key, limit_exceeded, rate_limited, body_too_large, no_endpoint, ... */
    errorCode: text("error_code").notNull(),
    /** the error's message, cut short */
    reason: text("reason").notNull(),
    method: text("method").notNull(),
    route: text("route").notNull(),
    model: text("model"),
    keyHash: text("key_hash"),
    workspaceId: text("workspace_id"),
    userId: text("user_id"),
  },
  (t) => [
    index("refused_requests_time").on(t.createdAt, t.id),
    index("refused_requests_workspace_time").on(t.workspaceId, t.createdAt, t.id),
    index("refused_requests_key_time").on(t.keyHash, t.createdAt, t.id),
    index("refused_requests_status_time").on(t.status, t.createdAt, t.id),
  ],
);

/** Refusals counted per UTC hour, workspace, key and status ("" for an unknown caller), with each batch of rows above. */
export const refusalsHourly = table(
  "refusals_hourly",
  {
    hour: millis("hour").notNull(),
    workspaceId: text("workspace_id").notNull(),
    keyHash: text("key_hash").notNull(),
    status: integer("status").notNull(),
    requests: int8("requests").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.hour, t.workspaceId, t.keyHash, t.status] })],
);

/**
 * Budget alerts sent: one row per scope (`key`, `workspace_budget`), subject (the key's hash, the
 * workspace's id), interval, window (the UTC day, ISO week's Monday, month, or "lifetime") and
 * threshold, inserted with the webhook's job, so each is sent once per window.
 */
export const budgetAlerts = table(
  "budget_alerts",
  {
    scope: text("scope").notNull(),
    subjectId: text("subject_id").notNull(),
    interval: text("interval").notNull(),
    windowKey: text("window_key").notNull(),
    threshold: text("threshold").notNull(),
    createdAt: millis("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.subjectId, t.interval, t.windowKey, t.threshold] })],
);
