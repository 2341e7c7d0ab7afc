import { bigint, pgTable, text } from "drizzle-orm/pg-core";

/**
 * Generations waiting to be forwarded; see ../../sqlite/tables/observation-outbox.ts. Not
 * described once (../../tables/): here the sealed payload stays in the row, and the key is an
 * identity where SQLite's is the rowid.
 */
export const observationOutbox = pgTable("observation_outbox", {
  seq: bigint("seq", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
  generationId: text("generation_id").notNull(),
  workspaceId: text("workspace_id").notNull(),
  sealed: text("sealed").notNull(),
  createdAt: bigint("created_at", { mode: "number" }).notNull(),
  claimedBy: text("claimed_by"),
  claimExpiresAt: bigint("claim_expires_at", { mode: "number" }),
});
