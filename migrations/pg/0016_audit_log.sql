CREATE TABLE "audit_events" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"created_at" bigint NOT NULL,
	"actor_type" text NOT NULL,
	"actor_id" text,
	"actor_label" text,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text,
	"workspace_id" text,
	"ip" text,
	"user_agent" text,
	"changes" text NOT NULL,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "audit_events_created" ON "audit_events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "audit_events_actor" ON "audit_events" USING btree ("actor_id","seq");--> statement-breakpoint
CREATE INDEX "audit_events_target" ON "audit_events" USING btree ("target_id","seq");--> statement-breakpoint
CREATE INDEX "audit_events_action" ON "audit_events" USING btree ("action","seq");