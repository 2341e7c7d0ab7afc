import { sqliteTable, text, integer, index, uniqueIndex, primaryKey } from "drizzle-orm/sqlite-core";
import { PRESET_FORMATS } from "../store";

/** Times are integer milliseconds since the epoch; money is integer nano-dollars (1e-9 USD). */

export const meta = sqliteTable("meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

export const users = sqliteTable("users", {
  id: text("id").primaryKey(),
  email: text("email"),
  name: text("name"),
  role: text("role", { enum: ["owner", "admin", "member"] }).notNull(),
  createdAt: integer("created_at").notNull(),
});

export const workspaces = sqliteTable(
  "workspaces",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    description: text("description"),
    isDefault: integer("is_default", { mode: "boolean" }).notNull().default(false),
    defaultTextModel: text("default_text_model"),
    defaultImageModel: text("default_image_model"),
    defaultProviderSort: text("default_provider_sort"),
    rateLimitRpm: integer("rate_limit_rpm"),
    rateLimitTpm: integer("rate_limit_tpm"),
    rateLimitConcurrency: integer("rate_limit_concurrency"),
    /** JSON: remaining Workspace settings that have no behaviour of their own here */
    settings: text("settings").notNull().default("{}"),
    /** the default callback URL of the workspace's webhooks; checked like every outbound URL when saved */
    webhookUrl: text("webhook_url"),
    createdBy: text("created_by"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at"),
  },
  (table) => [uniqueIndex("workspaces_slug_unique").on(table.slug)],
);

export const workspaceMembers = sqliteTable(
  "workspace_members",
  {
    id: text("id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    userId: text("user_id").notNull(),
    role: text("role", { enum: ["admin", "member"] }).notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.workspaceId, table.userId] })],
);

export const apiKeys = sqliteTable(
  "api_keys",
  {
    /** SHA-256 hex digest of the raw key; the raw key is never stored */
    hash: text("hash").primaryKey(),
    name: text("name").notNull(),
    label: text("label").notNull(),
    isManagement: integer("is_management", { mode: "boolean" }).notNull(),
    disabled: integer("disabled", { mode: "boolean" }).notNull().default(false),
    workspaceId: text("workspace_id").notNull(),
    creatorUserId: text("creator_user_id"),
    externalUser: text("external_user"),
    limitNanos: integer("limit_nanos"),
    limitReset: text("limit_reset", { enum: ["daily", "weekly", "monthly"] }),
    includeByokInLimit: integer("include_byok_in_limit", { mode: "boolean" }).notNull().default(false),
    rateLimitRpm: integer("rate_limit_rpm"),
    rateLimitTpm: integer("rate_limit_tpm"),
    rateLimitConcurrency: integer("rate_limit_concurrency"),
    expiresAt: integer("expires_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at"),
    deletedAt: integer("deleted_at"),
  },
  (table) => [index("api_keys_workspace").on(table.workspaceId)],
);

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
    createdAt: integer("created_at").notNull(),
  },
  (table) => [index("generations_key_time").on(table.keyHash, table.createdAt), index("generations_endpoint_time").on(table.endpointId, table.createdAt), index("generations_time").on(table.createdAt, table.id), index("generations_workspace_time").on(table.workspaceId, table.createdAt)],
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

/**
 * A workspace's webhook signing secret, sealed (AES-256-GCM under the master key) like BYOK keys.
 * After a rotation the previous secret keeps signing until `previous_valid_until`.
 */
export const workspaceWebhookSecrets = sqliteTable("workspace_webhook_secrets", {
  workspaceId: text("workspace_id").primaryKey(),
  /** base64 of iv | ciphertext | tag */
  sealedSecret: text("sealed_secret").notNull(),
  sealedPreviousSecret: text("sealed_previous_secret"),
  previousValidUntil: integer("previous_valid_until"),
  rotatedAt: integer("rotated_at").notNull(),
});

/** BYOK provider credentials. The raw key is stored only encrypted (AES-256-GCM under the master key). */
export const byokCredentials = sqliteTable(
  "byok_credentials",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id"),
    provider: text("provider").notNull(),
    name: text("name"),
    label: text("label").notNull(),
    /** base64 of iv | ciphertext | tag */
    encryptedKey: text("encrypted_key").notNull(),
    disabled: integer("disabled", { mode: "boolean" }).notNull().default(false),
    isFallback: integer("is_fallback", { mode: "boolean" }).notNull().default(false),
    isRequired: integer("is_required", { mode: "boolean" }).notNull().default(false),
    isByokOnly: integer("is_byok_only", { mode: "boolean" }).notNull().default(false),
    declaredZdr: integer("declared_zdr", { mode: "boolean" }),
    /** JSON arrays or null */
    allowedModels: text("allowed_models"),
    allowedUserIds: text("allowed_user_ids"),
    allowedApiKeyHashes: text("allowed_api_key_hashes"),
    sortOrder: integer("sort_order").notNull().default(0),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at"),
    deletedAt: integer("deleted_at"),
  },
  (table) => [index("byok_workspace_provider").on(table.workspaceId, table.provider)],
);

export const presets = sqliteTable(
  "presets",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    description: text("description"),
    status: text("status", { enum: ["active", "disabled", "archived"] }).notNull().default("active"),
    statusUpdatedAt: integer("status_updated_at"),
    designatedVersionId: text("designated_version_id"),
    creatorUserId: text("creator_user_id"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (table) => [uniqueIndex("presets_workspace_slug").on(table.workspaceId, table.slug)],
);

export const presetVersions = sqliteTable(
  "preset_versions",
  {
    id: text("id").primaryKey(),
    presetId: text("preset_id").notNull(),
    version: integer("version").notNull(),
    /** JSON object of the persisted configuration */
    config: text("config").notNull(),
    systemPrompt: text("system_prompt"),
    creatorId: text("creator_id"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    /** the wire format of the endpoint that created the version (its config's field names); null: written before it was recorded */
    format: text("format", { enum: PRESET_FORMATS }),
  },
  (table) => [uniqueIndex("preset_versions_preset_version").on(table.presetId, table.version)],
);

/**
 * Responses answers kept for `responses.item_retention_minutes`, so that a later request can
 * continue from one (`previous_response_id`). `input` is the JSON array of the items it
 * answered, references resolved; its output items are in `response_items`.
 */
export const storedResponses = sqliteTable(
  "stored_responses",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    input: text("input").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (table) => [index("stored_responses_expiry").on(table.expiresAt)],
);

/** The output items of a stored response, each as the JSON the client received, found by (workspace, item id). */
export const responseItems = sqliteTable(
  "response_items",
  {
    responseId: text("response_id").notNull(),
    position: integer("position").notNull(),
    workspaceId: text("workspace_id").notNull(),
    itemId: text("item_id"),
    item: text("item").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.responseId, table.position] }),
    index("response_items_item").on(table.workspaceId, table.itemId),
    index("response_items_expiry").on(table.expiresAt),
  ],
);

/**
 * The durable job queue (outbox; src/store/job-store.ts). `key` is unique when set, so a job
 * enqueued twice under one key is stored once. Leasing scans `jobs_due` (state, run_at), and a
 * running job whose lease ended is due again (`jobs_lease`).
 */
export const jobs = sqliteTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    key: text("key"),
    /** JSON */
    payload: text("payload").notNull(),
    state: text("state", { enum: ["pending", "running", "done", "dead"] }).notNull(),
    runAt: integer("run_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    leaseOwner: text("lease_owner"),
    leaseExpiresAt: integer("lease_expires_at"),
    lastError: text("last_error"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (table) => [
    uniqueIndex("jobs_key_unique").on(table.key),
    index("jobs_due").on(table.state, table.runAt),
    index("jobs_lease").on(table.state, table.leaseExpiresAt),
    index("jobs_created").on(table.createdAt),
  ],
);

/** Finished attempts by kind and outcome (succeeded, failed, dead), counted in the statement that records each. */
export const jobOutcomes = sqliteTable(
  "job_outcomes",
  {
    kind: text("kind").notNull(),
    outcome: text("outcome", { enum: ["succeeded", "failed", "dead"] }).notNull(),
    count: integer("count").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.kind, table.outcome] })],
);

/** Video generation jobs (src/store/video-job-store.ts); JSON-bearing columns are text. */
export const videoJobs = sqliteTable(
  "video_jobs",
  {
    id: text("id").primaryKey(),
    generationId: text("generation_id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    keyHash: text("key_hash").notNull(),
    userId: text("user_id"),
    model: text("model").notNull(),
    status: text("status", { enum: ["pending", "in_progress", "completed", "failed", "cancelled", "expired"] }).notNull(),
    version: integer("version").notNull(),
    request: text("request").notNull(),
    callbackUrl: text("callback_url"),
    reservationId: text("reservation_id"),
    endpointId: text("endpoint_id"),
    upstreamRef: text("upstream_ref"),
    outputs: text("outputs").notNull(),
    costNanos: integer("cost_nanos"),
    isByok: integer("is_byok", { mode: "boolean" }).notNull(),
    errorMessage: text("error_message"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    deadlineAt: integer("deadline_at").notNull(),
    completedAt: integer("completed_at"),
  },
  (table) => [index("video_jobs_workspace").on(table.workspaceId, table.createdAt)],
);
