CREATE TABLE `reservations` (
	`id` text PRIMARY KEY NOT NULL,
	`key_hash` text NOT NULL,
	`amount_nanos` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `reservations_key` ON `reservations` (`key_hash`);