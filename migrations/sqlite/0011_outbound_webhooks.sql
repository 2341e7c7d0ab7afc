CREATE TABLE `workspace_webhook_secrets` (
	`workspace_id` text PRIMARY KEY NOT NULL,
	`sealed_secret` text NOT NULL,
	`sealed_previous_secret` text,
	`previous_valid_until` integer,
	`rotated_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `workspaces` ADD `webhook_url` text;