DROP INDEX `jobs_due`;--> statement-breakpoint
CREATE INDEX `jobs_due` ON `jobs` (`state`,`run_at`,`id`);