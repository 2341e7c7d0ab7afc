import { pgTable, text, bigint } from "drizzle-orm/pg-core";
import { millis } from "./column-types";

/** Generations waiting to be forwarded; see ../../sqlite/tables/observation-outbox.ts. */
export const observationOutbox = pgTable("observation_outbox", {
  seq: bigint("seq", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
  generationId: text("generation_id").notNull(),
  workspaceId: text("workspace_id").notNull(),
  sealed: text("sealed").notNull(),
  createdAt: millis("created_at").notNull(),
  claimedBy: text("claimed_by"),
  claimExpiresAt: millis("claim_expires_at"),
});
