import { boolean, index, insertionOrder, millis, nanos, primaryKey, table, text, uniqueIndex } from "./kit";
import { spendCounters } from "./spend-counters";

/**
 * Guardrails (OpenRouter's): a workspace's policies on models, providers, data, spend and
 * content, and which keys and members they are assigned to. The policy fields are kept as one
 * JSON document in the API's own names: the store keeps them, the gateway applies them.
 */

export const guardrails = table(
  "guardrails",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    name: text("name").notNull(),
    description: text("description"),
    /** JSON object: allowed/ignored models and providers, ZDR and data-policy switches, content filters, data regions */
    rules: text("rules").notNull().default("{}"),
    limitNanos: nanos("limit_nanos"),
    resetInterval: text("reset_interval", { enum: ["daily", "weekly", "monthly"] }),
    includeByokInBudgets: boolean("include_byok_in_budgets").notNull().default(false),
    createdAt: millis("created_at").notNull(),
    updatedAt: millis("updated_at"),
    /** list order (SQLite: rowid) */
    seq: insertionOrder("seq"),
  },
  (table) => [index("guardrails_workspace").on(table.workspaceId, table.createdAt)],
);

/** A key holds at most one guardrail: assigning it to another one moves the row. */
export const guardrailKeyAssignments = table(
  "guardrail_key_assignments",
  {
    id: text("id").primaryKey(),
    guardrailId: text("guardrail_id").notNull(),
    keyHash: text("key_hash").notNull(),
    assignedBy: text("assigned_by"),
    createdAt: millis("created_at").notNull(),
    seq: insertionOrder("seq"),
  },
  (table) => [uniqueIndex("guardrail_key_assignments_key").on(table.keyHash), index("guardrail_key_assignments_guardrail").on(table.guardrailId)],
);

/**
 * A member holds at most one guardrail per workspace (the guardrail's): it covers every key the
 * member created in that workspace.
 */
export const guardrailMemberAssignments = table(
  "guardrail_member_assignments",
  {
    id: text("id").primaryKey(),
    guardrailId: text("guardrail_id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    userId: text("user_id").notNull(),
    assignedBy: text("assigned_by"),
    createdAt: millis("created_at").notNull(),
    seq: insertionOrder("seq"),
  },
  (table) => [
    uniqueIndex("guardrail_member_assignments_member").on(table.workspaceId, table.userId),
    index("guardrail_member_assignments_guardrail").on(table.guardrailId),
  ],
);

/**
 * Spend counters per member of a workspace (the keys a user created there), the twin of
 * key_usage, updated in the transaction that commits each generation: a member guardrail's budget
 * is measured on it. On PostgreSQL `held` sums the member shares of open reservations.
 */
export const memberUsage = table(
  "member_usage",
  {
    workspaceId: text("workspace_id").notNull(),
    userId: text("user_id").notNull(),
    ...spendCounters(),
  },
  (table) => [primaryKey({ columns: [table.workspaceId, table.userId] })],
);
