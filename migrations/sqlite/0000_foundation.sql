CREATE TABLE `api_keys` (
	`hash` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`label` text NOT NULL,
	`is_management` integer NOT NULL,
	`disabled` integer DEFAULT false NOT NULL,
	`workspace_id` text NOT NULL,
	`creator_user_id` text,
	`external_user` text,
	`limit_nanos` integer,
	`limit_reset` text,
	`include_byok_in_limit` integer DEFAULT false NOT NULL,
	`expires_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer,
	`deleted_at` integer
);
--> statement-breakpoint
CREATE INDEX `api_keys_workspace` ON `api_keys` (`workspace_id`);--> statement-breakpoint
CREATE TABLE `key_usage` (
	`hash` text PRIMARY KEY NOT NULL,
	`day_key` text NOT NULL,
	`week_key` text NOT NULL,
	`month_key` text NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`day` integer DEFAULT 0 NOT NULL,
	`week` integer DEFAULT 0 NOT NULL,
	`month` integer DEFAULT 0 NOT NULL,
	`byok_total` integer DEFAULT 0 NOT NULL,
	`byok_day` integer DEFAULT 0 NOT NULL,
	`byok_week` integer DEFAULT 0 NOT NULL,
	`byok_month` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `meta` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text,
	`name` text,
	`role` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `workspace_members` (
	`id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`user_id` text NOT NULL,
	`role` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`workspace_id`, `user_id`)
);
--> statement-breakpoint
CREATE TABLE `workspaces` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`description` text,
	`is_default` integer DEFAULT false NOT NULL,
	`default_text_model` text,
	`default_image_model` text,
	`default_provider_sort` text,
	`settings` text DEFAULT '{}' NOT NULL,
	`created_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `workspaces_slug_unique` ON `workspaces` (`slug`);