import { sqliteTable, text, integer, index, primaryKey } from "drizzle-orm/sqlite-core";

/** Spend: usage counters, generation records, reservations, workspace budgets, activity, feedback. */

/** The spend counters of a usage row (a key's or a workspace's), after its id column. */
const spendCounters = () => ({
  dayKey: text("day_key").notNull(),
  weekKey: text("week_key").notNull(),
  monthKey: text("month_key").notNull(),
  total: integer("total").notNull().default(0),
  day: integer("day").notNull().default(0),
  week: integer("week").notNull().default(0),
  month: integer("month").notNull().default(0),
  byokTotal: integer("byok_total").notNull().default(0),
  byokDay: integer("byok_day").notNull().default(0),
  byokWeek: integer("byok_week").notNull().default(0),
  byokMonth: integer("byok_month").notNull().default(0),
  /** unused: reservations live in the owning process's memory (reservation-book.ts); kept for databases of earlier versions */
  held: integer("held").notNull().default(0),
});

/**
 * Spend counters per key, updated in the same transaction as the generation they come from.
 * Each window counter is valid only while its window key (UTC day, ISO week's Monday, month)
 * is the current one, so windows roll over at midnight UTC without any job.
 */
export const keyUsage = sqliteTable("key_usage", {
  hash: text("hash").primaryKey(),
  ...spendCounters(),
});

/** One row per inference request. Kept lean: no prompts or completions, attempts as compact JSON. */
export const generations = sqliteTable(
  "generations",
  {
    id: text("id").primaryKey(),
    keyHash: text("key_hash").notNull(),
    workspaceId: text("workspace_id").notNull(),
    userId: text("user_id"),
    apiType: text("api_type").notNull(),
    requestedModel: text("requested_model"),
    model: text("model").notNull(),
    providerName: text("provider_name"),
    endpointId: text("endpoint_id"),
    upstreamId: text("upstream_id"),
    streamed: integer("streamed", { mode: "boolean" }).notNull(),
    cancelled: integer("cancelled", { mode: "boolean" }).notNull(),
    finishReason: text("finish_reason"),
    nativeFinishReason: text("native_finish_reason"),
    tokensPrompt: integer("tokens_prompt"),
    tokensCompletion: integer("tokens_completion"),
    tokensCached: integer("tokens_cached"),
    tokensCacheWrite: integer("tokens_cache_write"),
    tokensReasoning: integer("tokens_reasoning"),
    usageEstimated: integer("usage_estimated", { mode: "boolean" }).notNull().default(false),
    costNanos: integer("cost_nanos").notNull(),
    promptCostNanos: integer("prompt_cost_nanos").notNull().default(0),
    completionCostNanos: integer("completion_cost_nanos").notNull().default(0),
    isByok: integer("is_byok", { mode: "boolean" }).notNull().default(false),
    latencyMs: integer("latency_ms"),
    generationTimeMs: integer("generation_time_ms"),
    timeToFirstTokenMs: integer("ttft_ms"),
    /** JSON array of {model, provider, endpoint, status, latency} */
    attempts: text("attempts").notNull().default("[]"),
    sessionId: text("session_id"),
    externalUser: text("external_user"),
    presetId: text("preset_id"),
    /** JSON of the request's trace object, when sent */
    trace: text("trace"),
    httpReferer: text("http_referer"),
    userAgent: text("user_agent"),
    origin: text("origin"),
    errorMessage: text("error_message"),
    /** images an image generation returned (num_media_completion); null for other operations */
    numMediaCompletion: integer("num_media_completion"),
    createdAt: integer("created_at").notNull(),
  },
  (table) => [index("generations_key_time").on(table.keyHash, table.createdAt), index("generations_time").on(table.createdAt, table.id), index("generations_workspace_time").on(table.workspaceId, table.createdAt),
    // the console's generation log filters by each of these, newest first (keyset on created_at, id)
    index("generations_model_time").on(table.model, table.createdAt, table.id),
    index("generations_provider_time").on(table.providerName, table.createdAt, table.id),
    index("generations_finish_time").on(table.finishReason, table.createdAt, table.id),
    index("generations_cancelled_time").on(table.cancelled, table.createdAt, table.id),
  ],
);

/**
 * Unused: reservations live in the owning process's memory (reservation-book.ts). Kept so that
 * a database of an earlier version, which held reservations here, opens and is cleared by
 * `releaseAll` at start.
 */
export const reservations = sqliteTable(
  "reservations",
  {
    id: text("id").primaryKey(),
    keyHash: text("key_hash").notNull(),
    amountNanos: integer("amount_nanos").notNull(),
    createdAt: integer("created_at").notNull(),
    instanceId: text("instance_id").notNull().default(""),
    expiresAt: integer("expires_at").notNull().default(0),
    /** the workspace whose budgets this reservation also holds against (null: none), and its share */
    workspaceId: text("workspace_id"),
    workspaceAmountNanos: integer("workspace_amount_nanos").notNull().default(0),
  },
  (table) => [index("reservations_key").on(table.keyHash), index("reservations_instance").on(table.instanceId), index("reservations_expiry").on(table.expiresAt)],
);

/**
 * Spend counters per workspace, the twin of key_usage (same columns and window rules), updated in
 * the transaction that commits each generation; `held` is unused, as in key_usage.
 */
export const workspaceUsage = sqliteTable("workspace_usage", {
  workspaceId: text("workspace_id").primaryKey(),
  ...spendCounters(),
});

/** A workspace's spending budgets: at most one per interval (daily, weekly, monthly, lifetime). */
export const workspaceBudgets = sqliteTable(
  "workspace_budgets",
  {
    id: text("id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    interval: text("period", { enum: ["daily", "weekly", "monthly", "lifetime"] }).notNull(),
    limitNanos: integer("limit_nanos").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.workspaceId, table.interval] })],
);

/**
 * Activity counters: requests, tokens and spend per UTC day, workspace, key, user, model and
 * endpoint, added to in the transaction that commits each served generation, so GET /activity
 * sums a few rows instead of scanning generations. `user_id` is "" for keys without a user.
 */
export const activityDaily = sqliteTable(
  "activity_daily",
  {
    day: text("day").notNull(),
    workspaceId: text("workspace_id").notNull(),
    keyHash: text("key_hash").notNull(),
    userId: text("user_id").notNull(),
    model: text("model").notNull(),
    providerName: text("provider_name").notNull(),
    endpointId: text("endpoint_id").notNull(),
    requests: integer("requests").notNull().default(0),
    promptTokens: integer("prompt_tokens").notNull().default(0),
    completionTokens: integer("completion_tokens").notNull().default(0),
    reasoningTokens: integer("reasoning_tokens").notNull().default(0),
    usageNanos: integer("usage_nanos").notNull().default(0),
    byokUsageNanos: integer("byok_usage_nanos").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.day, table.workspaceId, table.keyHash, table.userId, table.model, table.providerName, table.endpointId] })],
);

/** Feedback clients submit on a generation (POST /generation/feedback), read back with its record. */
export const generationFeedback = sqliteTable(
  "generation_feedback",
  {
    id: text("id").primaryKey(),
    generationId: text("generation_id").notNull(),
    keyHash: text("key_hash").notNull(),
    category: text("category").notNull(),
    comment: text("comment"),
    createdAt: integer("created_at").notNull(),
  },
  (table) => [index("generation_feedback_generation").on(table.generationId, table.createdAt)],
);
