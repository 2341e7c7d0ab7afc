import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Generations waiting to be forwarded to observability destinations (src/store/observation-outbox-store.ts),
 * written in the transaction of the generation record and deleted once every delivery of the
 * generation was sent or stored as a job. One b-tree (the integer key is the rowid), so the
 * record's commit writes one more page at most: this is on every forwarded request's path.
 */
export const observationOutbox = sqliteTable("observation_outbox", {
  seq: integer("seq").primaryKey(),
  generationId: text("generation_id").notNull(),
  workspaceId: text("workspace_id").notNull(),
  createdAt: integer("created_at").notNull(),
  /** the drain holding the row and until when (both null: never claimed) */
  claimedBy: text("claimed_by"),
  claimExpiresAt: integer("claim_expires_at"),
});

/**
 * An outbox row's sealed generations, apart from the row: a claim sets the row's claim columns,
 * and SQLite rewrites a whole record (its overflow pages included) whose size changes. With the
 * kilobytes of sealed content in the record (a commit's generations: about 7 KB for 9), each claim
 * wrote those pages again, into the WAL the job worker then checkpoints. Written once, read once,
 * deleted with the row.
 */
export const observationOutboxPayloads = sqliteTable("observation_outbox_payloads", {
  seq: integer("seq").primaryKey(),
  /** the observed generations, sealed with the secret box */
  sealed: text("sealed").notNull(),
});
