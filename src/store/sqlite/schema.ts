import { sqliteTable, text, integer, index, uniqueIndex, primaryKey } from "drizzle-orm/sqlite-core";

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
    /** JSON: remaining Workspace settings that have no behaviour of their own here */
    settings: text("settings").notNull().default("{}"),
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
    expiresAt: integer("expires_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at"),
    deletedAt: integer("deleted_at"),
  },
  (table) => [index("api_keys_workspace").on(table.workspaceId)],
);

/**
 * Spend counters per key, updated in the same transaction as the generation they come from.
 * Each window counter is valid only while its window key (UTC day, ISO week's Monday, month)
 * is the current one, so windows roll over at midnight UTC without any job.
 */
export const keyUsage = sqliteTable("key_usage", {
  hash: text("hash").primaryKey(),
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
});
