CREATE TABLE "job_outcomes" (
	"kind" text NOT NULL,
	"outcome" text NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "job_outcomes_kind_outcome_pk" PRIMARY KEY("kind","outcome")
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"key" text,
	"payload" text NOT NULL,
	"state" text NOT NULL,
	"run_at" bigint NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_owner" text,
	"lease_expires_at" bigint,
	"last_error" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_key_unique" ON "jobs" USING btree ("key");--> statement-breakpoint
CREATE INDEX "jobs_due" ON "jobs" USING btree ("state","run_at");--> statement-breakpoint
CREATE INDEX "jobs_lease" ON "jobs" USING btree ("state","lease_expires_at");--> statement-breakpoint
CREATE INDEX "jobs_created" ON "jobs" USING btree ("created_at");