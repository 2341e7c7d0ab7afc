CREATE TABLE `observation_outbox_payloads` (
	`seq` integer PRIMARY KEY NOT NULL,
	`sealed` text NOT NULL
);
--> statement-breakpoint
INSERT INTO `observation_outbox_payloads` (`seq`, `sealed`) SELECT `seq`, `sealed` FROM `observation_outbox`;--> statement-breakpoint
ALTER TABLE `observation_outbox` DROP COLUMN `sealed`;