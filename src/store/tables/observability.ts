import { boolean, double, index, millis, table, text } from "./kit";

/**
 * Observability destinations (issue 18): where a workspace's generations are forwarded. Soft
 * deleted (`deleted_at`), and a deleted row keeps no secret. JSON-bearing columns are text.
 */
export const observabilityDestinations = table(
  "observability_destinations",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    type: text("type").notNull(),
    name: text("name").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    privacyMode: boolean("privacy_mode").notNull().default(false),
    samplingRate: double("sampling_rate").notNull().default(1),
    /** JSON array of data regions */
    regions: text("regions").notNull().default('["global"]'),
    /** JSON array of key hashes, or null: every key of the workspace */
    apiKeyHashes: text("api_key_hashes"),
    /** JSON object, or null */
    filterRules: text("filter_rules"),
    broadcastGenerationCost: boolean("broadcast_generation_cost").notNull().default(false),
    broadcastGenerationIdentity: boolean("broadcast_generation_identity").notNull().default(false),
    broadcastGenerationRequestContext: boolean("broadcast_generation_request_context").notNull().default(false),
    /** JSON: the config as the API shows it (secret values masked) */
    config: text("config").notNull(),
    /** JSON: key -> base64 of iv | ciphertext | tag, the secret values sealed under the master key; "{}" once deleted */
    sealedConfig: text("sealed_config").notNull().default("{}"),
    createdAt: millis("created_at").notNull(),
    updatedAt: millis("updated_at").notNull(),
    deletedAt: millis("deleted_at"),
  },
  (table) => [index("observability_destinations_workspace_type").on(table.workspaceId, table.type)],
);
