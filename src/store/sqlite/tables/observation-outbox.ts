import { sqliteTable, text, integer } from "drizzle-orm/sqlite-core";

/**
 * Generations waiting to be forwarded to observability destinations (src/store/observation-outbox-store.ts),
 * written in the transaction of the generation record and deleted once fanned out into delivery
 * jobs. One b-tree (the integer key is the rowid), so the record's commit writes one more page
 * at most: this is on every forwarded request's path.
 */
export const observationOutbox = sqliteTable("observation_outbox", {
  seq: integer("seq").primaryKey(),
  generationId: text("generation_id").notNull(),
  workspaceId: text("workspace_id").notNull(),
  /** the observed generation, sealed with the secret box */
  sealed: text("sealed").notNull(),
  createdAt: integer("created_at").notNull(),
});
