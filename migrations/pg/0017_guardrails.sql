CREATE TABLE "guardrail_key_assignments" (
	"id" text PRIMARY KEY NOT NULL,
	"guardrail_id" text NOT NULL,
	"key_hash" text NOT NULL,
	"assigned_by" text,
	"created_at" bigint NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "guardrail_key_assignments_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1)
);
--> statement-breakpoint
CREATE TABLE "guardrail_member_assignments" (
	"id" text PRIMARY KEY NOT NULL,
	"guardrail_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"user_id" text NOT NULL,
	"assigned_by" text,
	"created_at" bigint NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "guardrail_member_assignments_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1)
);
--> statement-breakpoint
CREATE TABLE "guardrails" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"rules" text DEFAULT '{}' NOT NULL,
	"limit_nanos" bigint,
	"reset_interval" text,
	"include_byok_in_budgets" boolean DEFAULT false NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "guardrails_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1)
);
--> statement-breakpoint
CREATE TABLE "member_usage" (
	"workspace_id" text NOT NULL,
	"user_id" text NOT NULL,
	"day_key" text NOT NULL,
	"week_key" text NOT NULL,
	"month_key" text NOT NULL,
	"total" bigint DEFAULT 0 NOT NULL,
	"day" bigint DEFAULT 0 NOT NULL,
	"week" bigint DEFAULT 0 NOT NULL,
	"month" bigint DEFAULT 0 NOT NULL,
	"byok_total" bigint DEFAULT 0 NOT NULL,
	"byok_day" bigint DEFAULT 0 NOT NULL,
	"byok_week" bigint DEFAULT 0 NOT NULL,
	"byok_month" bigint DEFAULT 0 NOT NULL,
	"held" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "member_usage_workspace_id_user_id_pk" PRIMARY KEY("workspace_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "guardrail_flags" text;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "member_user_id" text;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "member_amount_nanos" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "guardrail_key_assignments_key" ON "guardrail_key_assignments" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "guardrail_key_assignments_guardrail" ON "guardrail_key_assignments" USING btree ("guardrail_id");--> statement-breakpoint
CREATE UNIQUE INDEX "guardrail_member_assignments_member" ON "guardrail_member_assignments" USING btree ("workspace_id","user_id");--> statement-breakpoint
CREATE INDEX "guardrail_member_assignments_guardrail" ON "guardrail_member_assignments" USING btree ("guardrail_id");--> statement-breakpoint
CREATE INDEX "guardrails_workspace" ON "guardrails" USING btree ("workspace_id","created_at");