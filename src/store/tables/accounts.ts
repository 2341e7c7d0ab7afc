import { boolean, index, insertionOrder, integer, millis, nanos, primaryKey, table, text, uniqueIndex } from "./kit";

/** Who may call, and as what: users, workspaces and members, API keys, webhook secrets, BYOK credentials. */

export const meta = table("meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

export const users = table("users", {
  id: text("id").primaryKey(),
  email: text("email"),
  name: text("name"),
  role: text("role", { enum: ["owner", "admin", "member"] }).notNull(),
  createdAt: millis("created_at").notNull(),
  /** deactivated (SCIM `active: false`): no sign-in, no session, no key of theirs authenticates */
  disabled: boolean("disabled").notNull().default(false),
});

export const workspaces = table(
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

export const workspaceMembers = table(
  "workspace_members",
  {
    id: text("id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    userId: text("user_id").notNull(),
    role: text("role", { enum: ["admin", "member"] }).notNull(),
    createdAt: millis("created_at").notNull(),
    /** insertion order (SQLite: rowid); an upsert that only changes the role keeps it */
    seq: insertionOrder("seq"),
  },
  // the user's own memberships (the console scopes a member's view by them)
  (table) => [primaryKey({ columns: [table.workspaceId, table.userId] }), index("workspace_members_user").on(table.userId)],
);

export const apiKeys = table(
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
    /** JSON array of fractions of the limit whose crossing sends a budget alert, or null: none */
    alertThresholds: text("alert_thresholds"),
    createdAt: millis("created_at").notNull(),
    updatedAt: millis("updated_at"),
    deletedAt: millis("deleted_at"),
  },
  (table) => [index("api_keys_workspace").on(table.workspaceId)],
);

/**
 * The secrets a key had before a rotation: each still authenticates as the key (whose hash it no
 * longer is) until `valid_until`. `hash` is the old secret's SHA-256; `key_hash` the key's hash now.
 */
export const apiKeyPreviousHashes = table(
  "api_key_previous_hashes",
  {
    hash: text("hash").primaryKey(),
    keyHash: text("key_hash").notNull(),
    validUntil: millis("valid_until").notNull(),
    createdAt: millis("created_at").notNull(),
  },
  (table) => [index("api_key_previous_hashes_key").on(table.keyHash)],
);

/**
 * A workspace's webhook signing secret, sealed (AES-256-GCM under the master key) like BYOK keys.
 * After a rotation the previous secret keeps signing until `previous_valid_until`.
 */
export const workspaceWebhookSecrets = table("workspace_webhook_secrets", {
  workspaceId: text("workspace_id").primaryKey(),
  /** base64 of iv | ciphertext | tag */
  sealedSecret: text("sealed_secret").notNull(),
  sealedPreviousSecret: text("sealed_previous_secret"),
  previousValidUntil: millis("previous_valid_until"),
  rotatedAt: millis("rotated_at").notNull(),
});

/** BYOK provider credentials. The raw key is stored only encrypted (AES-256-GCM under the master key). */
export const byokCredentials = table(
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
