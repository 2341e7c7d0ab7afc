CREATE TABLE `generation_contents` (
	`generation_id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`key_hash` text NOT NULL,
	`sealed` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `generation_contents_created` ON `generation_contents` (`created_at`);--> statement-breakpoint
CREATE TABLE `observation_outbox` (
	`seq` integer PRIMARY KEY NOT NULL,
	`generation_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`sealed` text NOT NULL,
	`created_at` integer NOT NULL
);
