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
CREATE TABLE "scim_group_mappings" (
	"id" text PRIMARY KEY NOT NULL,
	"group_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"role" text NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scim_group_members" (
	"group_id" text NOT NULL,
	"user_id" text NOT NULL,
	CONSTRAINT "scim_group_members_group_id_user_id_pk" PRIMARY KEY("group_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "scim_groups" (
	"id" text PRIMARY KEY NOT NULL,
	"display_name" text NOT NULL,
	"external_id" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scim_managed_members" (
	"workspace_id" text NOT NULL,
	"user_id" text NOT NULL,
	CONSTRAINT "scim_managed_members_workspace_id_user_id_pk" PRIMARY KEY("workspace_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "scim_sync_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"synced_groups" integer,
	"deleted_groups" integer,
	"error_message" text,
	"created_at" bigint NOT NULL,
	"started_at" bigint,
	"finished_at" bigint
);
--> statement-breakpoint
CREATE TABLE "scim_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scim_users" (
	"user_id" text PRIMARY KEY NOT NULL,
	"external_id" text,
	"given_name" text,
	"family_name" text,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_identities" (
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"user_id" text NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "user_identities_issuer_subject_pk" PRIMARY KEY("issuer","subject")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "disabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "audit_events_created" ON "audit_events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "audit_events_actor" ON "audit_events" USING btree ("actor_id","seq");--> statement-breakpoint
CREATE INDEX "audit_events_target" ON "audit_events" USING btree ("target_id","seq");--> statement-breakpoint
CREATE INDEX "audit_events_action" ON "audit_events" USING btree ("action","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "scim_group_mappings_pair" ON "scim_group_mappings" USING btree ("group_id","workspace_id");--> statement-breakpoint
CREATE INDEX "scim_group_mappings_workspace" ON "scim_group_mappings" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "scim_group_members_user" ON "scim_group_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "scim_managed_members_user" ON "scim_managed_members" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "scim_tokens_hash" ON "scim_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "user_identities_user" ON "user_identities" USING btree ("user_id");