import { pgTable, text, integer, bigint, boolean, index, uniqueIndex, primaryKey } from "drizzle-orm/pg-core";
import { PRESET_FORMATS } from "../store";

/**
 * The PostgreSQL twin of `../sqlite/schema.ts`: the same tables and column names. Times are
 * milliseconds since the epoch and money nano-dollars, both `bigint` (int8) read back as JS
 * numbers; JSON-bearing columns stay `text` so values round-trip byte-exactly, as on SQLite.
 *
 * One difference: SQLite orders some lists by `rowid` (insertion order); PostgreSQL has no such
 * column, so the tables that need it carry an explicit identity column `seq`
 * (`workspace_members`, `preset_versions`).
 */

const millis = (name: string) => bigint(name, { mode: "number" });
const nanos = (name: string) => bigint(name, { mode: "number" });

export const meta = pgTable("meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

export const users = pgTable("users", {
  id: text("id").primaryKey(),
  email: text("email"),
  name: text("name"),
  role: text("role", { enum: ["owner", "admin", "member"] }).notNull(),
  createdAt: millis("created_at").notNull(),
});

export const workspaces = pgTable(
  "workspaces",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    description: text("description"),
    isDefault: boolean("is_default").notNull().default(false),
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
    createdAt: millis("created_at").notNull(),
    updatedAt: millis("updated_at"),
  },
  (table) => [uniqueIndex("workspaces_slug_unique").on(table.slug)],
);

export const workspaceMembers = pgTable(
  "workspace_members",
  {
    id: text("id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    userId: text("user_id").notNull(),
    role: text("role", { enum: ["admin", "member"] }).notNull(),
    createdAt: millis("created_at").notNull(),
    /** insertion order (SQLite: rowid); an upsert that only changes the role keeps it */
    seq: bigint("seq", { mode: "number" }).notNull().generatedAlwaysAsIdentity(),
  },
  (table) => [primaryKey({ columns: [table.workspaceId, table.userId] })],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    /** SHA-256 hex digest of the raw key; the raw key is never stored */
    hash: text("hash").primaryKey(),
    name: text("name").notNull(),
    label: text("label").notNull(),
    isManagement: boolean("is_management").notNull(),
    disabled: boolean("disabled").notNull().default(false),
    workspaceId: text("workspace_id").notNull(),
    creatorUserId: text("creator_user_id"),
    externalUser: text("external_user"),
    limitNanos: nanos("limit_nanos"),
    limitReset: text("limit_reset", { enum: ["daily", "weekly", "monthly"] }),
    includeByokInLimit: boolean("include_byok_in_limit").notNull().default(false),
    rateLimitRpm: integer("rate_limit_rpm"),
    rateLimitTpm: integer("rate_limit_tpm"),
    rateLimitConcurrency: integer("rate_limit_concurrency"),
    expiresAt: millis("expires_at"),
    createdAt: millis("created_at").notNull(),
    updatedAt: millis("updated_at"),
    deletedAt: millis("deleted_at"),
  },
  (table) => [index("api_keys_workspace").on(table.workspaceId)],
);

/** The spend counters of a usage row (a key's or a workspace's), after its id column. */
const spendCounters = () => ({
  dayKey: text("day_key").notNull(),
  weekKey: text("week_key").notNull(),
  monthKey: text("month_key").notNull(),
  total: nanos("total").notNull().default(0),
  day: nanos("day").notNull().default(0),
  week: nanos("week").notNull().default(0),
  month: nanos("month").notNull().default(0),
  byokTotal: nanos("byok_total").notNull().default(0),
  byokDay: nanos("byok_day").notNull().default(0),
  byokWeek: nanos("byok_week").notNull().default(0),
  byokMonth: nanos("byok_month").notNull().default(0),
  /** sum of the owner's open reservations, kept beside the spend so one conditional upsert reserves */
  held: nanos("held").notNull().default(0),
});

/**
 * Spend counters per key. Each window counter is valid only while its window key (UTC day, ISO
 * week's Monday, month) is the current one, so windows roll over at midnight UTC without any job.
 */
export const keyUsage = pgTable("key_usage", {
  hash: text("hash").primaryKey(),
  ...spendCounters(),
});

/** One row per inference request. Kept lean: no prompts or completions, attempts as compact JSON. */
export const generations = pgTable(
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
    createdAt: millis("created_at").notNull(),
  },
  (table) => [index("generations_key_time").on(table.keyHash, table.createdAt), index("generations_endpoint_time").on(table.endpointId, table.createdAt), index("generations_time").on(table.createdAt, table.id), index("generations_workspace_time").on(table.workspaceId, table.createdAt)],
);

/**
 * Spend held by requests in flight: each reserves its worst-case cost before calling upstream
 * and the row is deleted in the statement that records the real cost. The holding instance
 * renews `expires_at`; rows of an instance that died are released once it passes.
 */
export const reservations = pgTable(
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
  },
  (table) => [index("reservations_key").on(table.keyHash), index("reservations_instance").on(table.instanceId), index("reservations_expiry").on(table.expiresAt)],
);

/**
 * Spend counters per workspace, the twin of key_usage (same columns and window rules), updated in
 * the transaction that commits each generation; `held` sums the workspace shares of open
 * reservations, so that a reservation checks every budget of the workspace in one step.
 */
export const workspaceUsage = pgTable("workspace_usage", {
  workspaceId: text("workspace_id").primaryKey(),
  ...spendCounters(),
});

/** A workspace's spending budgets: at most one per interval (daily, weekly, monthly, lifetime). */
export const workspaceBudgets = pgTable(
  "workspace_budgets",
  {
    id: text("id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    interval: text("period", { enum: ["daily", "weekly", "monthly", "lifetime"] }).notNull(),
    limitNanos: nanos("limit_nanos").notNull(),
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
export const activityDaily = pgTable(
  "activity_daily",
  {
    day: text("day").notNull(),
    workspaceId: text("workspace_id").notNull(),
    keyHash: text("key_hash").notNull(),
    userId: text("user_id").notNull(),
    model: text("model").notNull(),
    providerName: text("provider_name").notNull(),
    endpointId: text("endpoint_id").notNull(),
    requests: nanos("requests").notNull().default(0),
    promptTokens: nanos("prompt_tokens").notNull().default(0),
    completionTokens: nanos("completion_tokens").notNull().default(0),
    reasoningTokens: nanos("reasoning_tokens").notNull().default(0),
    usageNanos: nanos("usage_nanos").notNull().default(0),
    byokUsageNanos: nanos("byok_usage_nanos").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.day, table.workspaceId, table.keyHash, table.userId, table.model, table.providerName, table.endpointId] })],
);

/** Feedback clients submit on a generation (POST /generation/feedback), read back with its record. */
export const generationFeedback = pgTable(
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

/**
 * A workspace's webhook signing secret, sealed (AES-256-GCM under the master key) like BYOK keys.
 * After a rotation the previous secret keeps signing until `previous_valid_until`.
 */
export const workspaceWebhookSecrets = pgTable("workspace_webhook_secrets", {
  workspaceId: text("workspace_id").primaryKey(),
  /** base64 of iv | ciphertext | tag */
  sealedSecret: text("sealed_secret").notNull(),
  sealedPreviousSecret: text("sealed_previous_secret"),
  previousValidUntil: millis("previous_valid_until"),
  rotatedAt: millis("rotated_at").notNull(),
});

/** BYOK provider credentials. The raw key is stored only encrypted (AES-256-GCM under the master key). */
export const byokCredentials = pgTable(
  "byok_credentials",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id"),
    provider: text("provider").notNull(),
    name: text("name"),
    label: text("label").notNull(),
    /** base64 of iv | ciphertext | tag */
    encryptedKey: text("encrypted_key").notNull(),
    disabled: boolean("disabled").notNull().default(false),
    isFallback: boolean("is_fallback").notNull().default(false),
    isRequired: boolean("is_required").notNull().default(false),
    isByokOnly: boolean("is_byok_only").notNull().default(false),
    declaredZdr: boolean("declared_zdr"),
    /** JSON arrays or null */
    allowedModels: text("allowed_models"),
    allowedUserIds: text("allowed_user_ids"),
    allowedApiKeyHashes: text("allowed_api_key_hashes"),
    sortOrder: integer("sort_order").notNull().default(0),
    createdAt: millis("created_at").notNull(),
    updatedAt: millis("updated_at"),
    deletedAt: millis("deleted_at"),
  },
  (table) => [index("byok_workspace_provider").on(table.workspaceId, table.provider)],
);

export const presets = pgTable(
  "presets",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    description: text("description"),
    status: text("status", { enum: ["active", "disabled", "archived"] }).notNull().default("active"),
    statusUpdatedAt: millis("status_updated_at"),
    designatedVersionId: text("designated_version_id"),
    creatorUserId: text("creator_user_id"),
    createdAt: millis("created_at").notNull(),
    updatedAt: millis("updated_at").notNull(),
  },
  (table) => [uniqueIndex("presets_workspace_slug").on(table.workspaceId, table.slug)],
);

export const presetVersions = pgTable(
  "preset_versions",
  {
    id: text("id").primaryKey(),
    presetId: text("preset_id").notNull(),
    version: integer("version").notNull(),
    /** JSON object of the persisted configuration */
    config: text("config").notNull(),
    systemPrompt: text("system_prompt"),
    creatorId: text("creator_id"),
    createdAt: millis("created_at").notNull(),
    updatedAt: millis("updated_at").notNull(),
    /** the wire format of the endpoint that created the version (its config's field names); null: written before it was recorded */
    format: text("format", { enum: PRESET_FORMATS }),
    /** write order (SQLite: rowid): breaks ties of presets updated in the same millisecond */
    seq: bigint("seq", { mode: "number" }).notNull().generatedAlwaysAsIdentity(),
  },
  (table) => [uniqueIndex("preset_versions_preset_version").on(table.presetId, table.version)],
);

/**
 * Responses answers kept for `responses.item_retention_minutes`, so that a later request can
 * continue from one (`previous_response_id`). `input` is the JSON array of the items it
 * answered, references resolved; its output items are in `response_items`.
 */
export const storedResponses = pgTable(
  "stored_responses",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    input: text("input").notNull(),
    createdAt: millis("created_at").notNull(),
    expiresAt: millis("expires_at").notNull(),
  },
  (table) => [index("stored_responses_expiry").on(table.expiresAt)],
);

/** The output items of a stored response, each as the JSON the client received, found by (workspace, item id). */
export const responseItems = pgTable(
  "response_items",
  {
    responseId: text("response_id").notNull(),
    position: integer("position").notNull(),
    workspaceId: text("workspace_id").notNull(),
    itemId: text("item_id"),
    item: text("item").notNull(),
    expiresAt: millis("expires_at").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.responseId, table.position] }),
    index("response_items_item").on(table.workspaceId, table.itemId),
    index("response_items_expiry").on(table.expiresAt),
  ],
);

/** The job queue; see ../sqlite/schema.ts. */
export const jobs = pgTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    key: text("key"),
    /** JSON */
    payload: text("payload").notNull(),
    state: text("state", { enum: ["pending", "running", "done", "dead"] }).notNull(),
    runAt: millis("run_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    leaseOwner: text("lease_owner"),
    leaseExpiresAt: millis("lease_expires_at"),
    lastError: text("last_error"),
    createdAt: millis("created_at").notNull(),
    updatedAt: millis("updated_at").notNull(),
  },
  (table) => [
    uniqueIndex("jobs_key_unique").on(table.key),
    index("jobs_due").on(table.state, table.runAt),
    index("jobs_lease").on(table.state, table.leaseExpiresAt),
    index("jobs_created").on(table.createdAt),
  ],
);

/** Finished attempts by kind and outcome; see ../sqlite/schema.ts. */
export const jobOutcomes = pgTable(
  "job_outcomes",
  {
    kind: text("kind").notNull(),
    outcome: text("outcome", { enum: ["succeeded", "failed", "dead"] }).notNull(),
    count: bigint("count", { mode: "number" }).notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.kind, table.outcome] })],
);

/** Video generation jobs (src/store/video-job-store.ts); JSON-bearing columns are text. */
export const videoJobs = pgTable(
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
    costNanos: nanos("cost_nanos"),
    isByok: boolean("is_byok").notNull(),
    errorMessage: text("error_message"),
    createdAt: millis("created_at").notNull(),
    updatedAt: millis("updated_at").notNull(),
    deadlineAt: millis("deadline_at").notNull(),
    completedAt: millis("completed_at"),
  },
  (table) => [index("video_jobs_workspace").on(table.workspaceId, table.createdAt)],
);
