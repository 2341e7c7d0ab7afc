import { boolean, index, int8, integer, millis, nanos, primaryKey, table, text } from "./kit";
import { spendCounters } from "./spend-counters";

/** Spend: usage counters, generation records, reservations, workspace budgets, activity, feedback. */

/**
 * Spend counters per key, updated in the same transaction as the generation they come from.
 * Each window counter is valid only while its window key (UTC day, ISO week's Monday, month)
 * is the current one, so windows roll over at midnight UTC without any job.
 */
export const keyUsage = table("key_usage", {
  hash: text("hash").primaryKey(),
  ...spendCounters(),
});

/** One row per inference request. Kept lean: no prompts or completions, attempts as compact JSON. */
export const generations = table(
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
    streamed: boolean("streamed").notNull(),
    cancelled: boolean("cancelled").notNull(),
    finishReason: text("finish_reason"),
    nativeFinishReason: text("native_finish_reason"),
    tokensPrompt: integer("tokens_prompt"),
    tokensCompletion: integer("tokens_completion"),
    tokensCached: integer("tokens_cached"),
    tokensCacheWrite: integer("tokens_cache_write"),
    tokensReasoning: integer("tokens_reasoning"),
    usageEstimated: boolean("usage_estimated").notNull().default(false),
    costNanos: nanos("cost_nanos").notNull(),
    promptCostNanos: nanos("prompt_cost_nanos").notNull().default(0),
    completionCostNanos: nanos("completion_cost_nanos").notNull().default(0),
    isByok: boolean("is_byok").notNull().default(false),
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
    /** JSON array of the guardrail content filters that flagged the request (action "flag"); null: none */
    guardrailFlags: text("guardrail_flags"),
    createdAt: millis("created_at").notNull(),
    /** the response cache's verdict (hit, miss, bypass); null: the cache was off */
    cacheStatus: text("cache_status"),
    /** a cache hit: the generation whose answer it served */
    cacheSourceId: text("cache_source_id"),
  },
  (table) => [
    index("generations_key_time").on(table.keyHash, table.createdAt),
    index("generations_time").on(table.createdAt, table.id),
    index("generations_workspace_time").on(table.workspaceId, table.createdAt),
    // the console's generation log filters by each of these, newest first (keyset on created_at, id)
    index("generations_model_time").on(table.model, table.createdAt, table.id),
    index("generations_provider_time").on(table.providerName, table.createdAt, table.id),
    index("generations_finish_time").on(table.finishReason, table.createdAt, table.id),
    index("generations_cancelled_time").on(table.cancelled, table.createdAt, table.id),
    // the few flagged generations (GET /generations?flagged=true), newest first, without walking the others
    index("generations_flagged_time").on(table.createdAt, table.id).whereNotNull(table.guardrailFlags),
  ],
);

/**
 * Spend held by requests in flight: each reserves its worst-case cost before calling upstream
 * and the row is deleted in the statement that records the real cost. The holding instance
 * renews `expires_at`; rows of an instance that died are released once it passes. That is
 * PostgreSQL's; SQLite keeps reservations in the owning process's memory (reservation-book.ts)
 * and keeps this table only so that a database of an earlier version, which held reservations
 * here, opens and is cleared by `releaseAll` at start.
 */
export const reservations = table(
  "reservations",
  {
    id: text("id").primaryKey(),
    keyHash: text("key_hash").notNull(),
    amountNanos: nanos("amount_nanos").notNull(),
    createdAt: millis("created_at").notNull(),
    instanceId: text("instance_id").notNull().default(""),
    expiresAt: millis("expires_at").notNull().default(0),
    /** the workspace whose budgets this reservation also holds against (null: none), and its share */
    workspaceId: text("workspace_id"),
    workspaceAmountNanos: nanos("workspace_amount_nanos").notNull().default(0),
    /** the member (a user of that workspace) whose guardrail budget this reservation also holds against (null: none), and its share */
    memberUserId: text("member_user_id"),
    memberAmountNanos: nanos("member_amount_nanos").notNull().default(0),
  },
  (table) => [
    index("reservations_key").on(table.keyHash),
    index("reservations_instance").on(table.instanceId),
    index("reservations_expiry").on(table.expiresAt),
  ],
);

/**
 * Spend counters per workspace, the twin of key_usage (same columns and window rules), updated in
 * the transaction that commits each generation; on PostgreSQL `held` sums the workspace shares
 * of open reservations, so that a reservation checks every budget of the workspace in one step.
 */
export const workspaceUsage = table("workspace_usage", {
  workspaceId: text("workspace_id").primaryKey(),
  ...spendCounters(),
});

/** A workspace's spending budgets: at most one per interval (daily, weekly, monthly, lifetime). */
export const workspaceBudgets = table(
  "workspace_budgets",
  {
    id: text("id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    interval: text("period", { enum: ["daily", "weekly", "monthly", "lifetime"] }).notNull(),
    limitNanos: nanos("limit_nanos").notNull(),
    /** JSON array of fractions of the limit whose crossing sends a budget alert, or null: none */
    alertThresholds: text("alert_thresholds"),
    createdAt: millis("created_at").notNull(),
    updatedAt: millis("updated_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.workspaceId, table.interval] })],
);

/**
 * Activity counters: requests, tokens and spend per UTC day, workspace, key, user, model and
 * endpoint, added to in the transaction that commits each served generation, so GET /activity
 * sums a few rows instead of scanning generations. `user_id` is "" for keys without a user.
 */
export const activityDaily = table(
  "activity_daily",
  {
    day: text("day").notNull(),
    workspaceId: text("workspace_id").notNull(),
    keyHash: text("key_hash").notNull(),
    userId: text("user_id").notNull(),
    model: text("model").notNull(),
    providerName: text("provider_name").notNull(),
    endpointId: text("endpoint_id").notNull(),
    requests: int8("requests").notNull().default(0),
    promptTokens: int8("prompt_tokens").notNull().default(0),
    completionTokens: int8("completion_tokens").notNull().default(0),
    reasoningTokens: int8("reasoning_tokens").notNull().default(0),
    usageNanos: nanos("usage_nanos").notNull().default(0),
    byokUsageNanos: nanos("byok_usage_nanos").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.day, table.workspaceId, table.keyHash, table.userId, table.model, table.providerName, table.endpointId] })],
);

/** Feedback clients submit on a generation (POST /generation/feedback), read back with its record. */
export const generationFeedback = table(
  "generation_feedback",
  {
    id: text("id").primaryKey(),
    generationId: text("generation_id").notNull(),
    keyHash: text("key_hash").notNull(),
    category: text("category").notNull(),
    comment: text("comment"),
    createdAt: millis("created_at").notNull(),
  },
  (table) => [index("generation_feedback_generation").on(table.generationId, table.createdAt)],
);
