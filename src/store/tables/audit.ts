import { index, int8, millis, table, text } from "./kit";

/**
 * The audit log: one row per administrative change, chained by hash (src/audit/chain.ts). `seq`
 * counts up by one from 1 in the order the events were written (every write holds the store's
 * write lock), so a missing row shows as a gap as well as a broken link.
 */
export const auditEvents = table(
  "audit_events",
  {
    seq: int8("seq").primaryKey(),
    createdAt: millis("created_at").notNull(),
    actorType: text("actor_type", { enum: ["user", "key", "scim", "cli", "system"] }).notNull(),
    actorId: text("actor_id"),
    actorLabel: text("actor_label"),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id"),
    workspaceId: text("workspace_id"),
    ip: text("ip"),
    userAgent: text("user_agent"),
    /** JSON `{field: {from, to}}`, secrets already redacted */
    changes: text("changes").notNull(),
    /** the previous event's hash (the anchor's for the oldest kept event) */
    prevHash: text("prev_hash").notNull(),
    hash: text("hash").notNull(),
  },
  // the listing's filters, newest first; the retention purge by time
  (table) => [
    index("audit_events_created").on(table.createdAt),
    index("audit_events_actor").on(table.actorId, table.seq),
    index("audit_events_target").on(table.targetId, table.seq),
    index("audit_events_action").on(table.action, table.seq),
  ],
);
