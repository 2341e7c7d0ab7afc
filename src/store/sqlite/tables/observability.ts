import { sqliteTable, text, integer, real, index } from "drizzle-orm/sqlite-core";

/**
 * Observability destinations (issue 18): where a workspace's generations are forwarded. Soft
 * deleted (`deleted_at`), and a deleted row keeps no secret. JSON-bearing columns are text.
 */
export const observabilityDestinations = sqliteTable(
  "observability_destinations",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    type: text("type").notNull(),
    name: text("name").notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    privacyMode: integer("privacy_mode", { mode: "boolean" }).notNull().default(false),
    samplingRate: real("sampling_rate").notNull().default(1),
    /** JSON array of data regions */
    regions: text("regions").notNull().default('["global"]'),
    /** JSON array of key hashes, or null: every key of the workspace */
    apiKeyHashes: text("api_key_hashes"),
    /** JSON object, or null */
    filterRules: text("filter_rules"),
    broadcastGenerationCost: integer("broadcast_generation_cost", { mode: "boolean" }).notNull().default(false),
    broadcastGenerationIdentity: integer("broadcast_generation_identity", { mode: "boolean" }).notNull().default(false),
    broadcastGenerationRequestContext: integer("broadcast_generation_request_context", { mode: "boolean" }).notNull().default(false),
    /** JSON: the config as the API shows it (secret values masked) */
    config: text("config").notNull(),
    /** JSON: key -> base64 of iv | ciphertext | tag, the secret values sealed under the master key; "{}" once deleted */
    sealedConfig: text("sealed_config").notNull().default("{}"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    deletedAt: integer("deleted_at"),
  },
  (table) => [index("observability_destinations_workspace_type").on(table.workspaceId, table.type)],
);
