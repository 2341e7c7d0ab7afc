import { PRESET_FORMATS } from "../preset-store";
import { index, insertionOrder, integer, millis, primaryKey, table, text, uniqueIndex } from "./kit";

/** What a workspace keeps for later requests: preset versions and Responses state. */

export const presets = table(
  "presets",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    description: text("description"),
    status: text("status", { enum: ["active", "disabled", "archived"] })
      .notNull()
      .default("active"),
    statusUpdatedAt: millis("status_updated_at"),
    designatedVersionId: text("designated_version_id"),
    creatorUserId: text("creator_user_id"),
    createdAt: millis("created_at").notNull(),
    updatedAt: millis("updated_at").notNull(),
  },
  (table) => [uniqueIndex("presets_workspace_slug").on(table.workspaceId, table.slug)],
);

export const presetVersions = table(
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
    seq: insertionOrder("seq"),
  },
  (table) => [uniqueIndex("preset_versions_preset_version").on(table.presetId, table.version)],
);

/**
 * Responses answers kept for `responses.item_retention_minutes`, so that a later request can
 * continue from one (`previous_response_id`). `input` is the JSON array of the items it
 * answered, references resolved; its output items are in `response_items`.
 */
export const storedResponses = table(
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
export const responseItems = table(
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
