ALTER TABLE `observation_outbox` ADD `claimed_by` text;--> statement-breakpoint
ALTER TABLE `observation_outbox` ADD `claim_expires_at` integer;