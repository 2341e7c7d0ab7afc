CREATE TABLE `byok_credentials` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text,
	`provider` text NOT NULL,
	`name` text,
	`label` text NOT NULL,
	`encrypted_key` text NOT NULL,
	`disabled` integer DEFAULT false NOT NULL,
	`is_fallback` integer DEFAULT false NOT NULL,
	`is_required` integer DEFAULT false NOT NULL,
	`is_byok_only` integer DEFAULT false NOT NULL,
	`declared_zdr` integer,
	`allowed_models` text,
	`allowed_user_ids` text,
	`allowed_api_key_hashes` text,
	`sort_order` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer,
	`deleted_at` integer
);
--> statement-breakpoint
CREATE INDEX `byok_workspace_provider` ON `byok_credentials` (`workspace_id`,`provider`);--> statement-breakpoint
CREATE TABLE `preset_versions` (
	`id` text PRIMARY KEY NOT NULL,
	`preset_id` text NOT NULL,
	`version` integer NOT NULL,
	`config` text NOT NULL,
	`system_prompt` text,
	`creator_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `preset_versions_preset_version` ON `preset_versions` (`preset_id`,`version`);--> statement-breakpoint
CREATE TABLE `presets` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`slug` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`status` text DEFAULT 'active' NOT NULL,
	`status_updated_at` integer,
	`designated_version_id` text,
	`creator_user_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `presets_workspace_slug` ON `presets` (`workspace_id`,`slug`);