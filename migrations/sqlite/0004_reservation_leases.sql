ALTER TABLE `key_usage` ADD `held` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `reservations` ADD `instance_id` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `reservations` ADD `expires_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `reservations_instance` ON `reservations` (`instance_id`);--> statement-breakpoint
CREATE INDEX `reservations_expiry` ON `reservations` (`expires_at`);