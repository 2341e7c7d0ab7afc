ALTER TABLE "observation_outbox" ADD COLUMN "claimed_by" text;--> statement-breakpoint
ALTER TABLE "observation_outbox" ADD COLUMN "claim_expires_at" bigint;