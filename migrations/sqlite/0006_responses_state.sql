CREATE TABLE `response_items` (
	`response_id` text NOT NULL,
	`position` integer NOT NULL,
	`workspace_id` text NOT NULL,
	`item_id` text,
	`item` text NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`response_id`, `position`)
);
--> statement-breakpoint
CREATE INDEX `response_items_item` ON `response_items` (`workspace_id`,`item_id`);--> statement-breakpoint
CREATE INDEX `response_items_expiry` ON `response_items` (`expires_at`);--> statement-breakpoint
CREATE TABLE `stored_responses` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`input` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `stored_responses_expiry` ON `stored_responses` (`expires_at`);