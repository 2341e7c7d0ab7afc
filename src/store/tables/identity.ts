import { index, integer, millis, primaryKey, table, text, uniqueIndex } from "./kit";

/**
 * Identities from outside the gateway: the OpenID Connect subjects people sign in as, and what a
 * SCIM client provisions (RFC 7643): tokens, the SCIM attributes of users, groups and their
 * members, and OpenRouter's group mappings (a group's members become members of a workspace).
 */

/** an OIDC subject is unique within its issuer (OpenID Connect Core 1.0, section 2: `sub`) */
export const userIdentities = table(
  "user_identities",
  {
    issuer: text("issuer").notNull(),
    subject: text("subject").notNull(),
    userId: text("user_id").notNull(),
    createdAt: millis("created_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.issuer, table.subject] }), index("user_identities_user").on(table.userId)],
);

export const scimTokens = table(
  "scim_tokens",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    /** SHA-256 hex of the raw token, which is shown once */
    tokenHash: text("token_hash").notNull(),
    createdAt: millis("created_at").notNull(),
  },
  (table) => [uniqueIndex("scim_tokens_hash").on(table.tokenHash)],
);

/** the SCIM attributes of a provisioned user that the users table has no column for */
export const scimUsers = table("scim_users", {
  userId: text("user_id").primaryKey(),
  externalId: text("external_id"),
  givenName: text("given_name"),
  familyName: text("family_name"),
  updatedAt: millis("updated_at").notNull(),
});

export const scimGroups = table("scim_groups", {
  id: text("id").primaryKey(),
  displayName: text("display_name").notNull(),
  externalId: text("external_id"),
  createdAt: millis("created_at").notNull(),
  updatedAt: millis("updated_at").notNull(),
});

export const scimGroupMembers = table(
  "scim_group_members",
  {
    groupId: text("group_id").notNull(),
    userId: text("user_id").notNull(),
  },
  (table) => [primaryKey({ columns: [table.groupId, table.userId] }), index("scim_group_members_user").on(table.userId)],
);

export const scimGroupMappings = table(
  "scim_group_mappings",
  {
    id: text("id").primaryKey(),
    groupId: text("group_id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    role: text("role", { enum: ["admin", "member"] }).notNull(),
    createdAt: millis("created_at").notNull(),
    updatedAt: millis("updated_at").notNull(),
  },
  (table) => [uniqueIndex("scim_group_mappings_pair").on(table.groupId, table.workspaceId), index("scim_group_mappings_workspace").on(table.workspaceId)],
);

/** the workspace memberships a group mapping made: they leave with the group, others are never touched */
export const scimManagedMembers = table(
  "scim_managed_members",
  {
    workspaceId: text("workspace_id").notNull(),
    userId: text("user_id").notNull(),
  },
  (table) => [primaryKey({ columns: [table.workspaceId, table.userId] }), index("scim_managed_members_user").on(table.userId)],
);

export const scimSyncJobs = table("scim_sync_jobs", {
  id: text("id").primaryKey(),
  status: text("status", { enum: ["queued", "running", "succeeded", "failed"] }).notNull(),
  syncedGroups: integer("synced_groups"),
  deletedGroups: integer("deleted_groups"),
  errorMessage: text("error_message"),
  createdAt: millis("created_at").notNull(),
  startedAt: millis("started_at"),
  finishedAt: millis("finished_at"),
});
