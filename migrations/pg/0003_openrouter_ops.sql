CREATE TABLE "activity_daily" (
	"day" text NOT NULL,
	"workspace_id" text NOT NULL,
	"key_hash" text NOT NULL,
	"user_id" text NOT NULL,
	"model" text NOT NULL,
	"provider_name" text NOT NULL,
	"endpoint_id" text NOT NULL,
	"requests" bigint DEFAULT 0 NOT NULL,
	"prompt_tokens" bigint DEFAULT 0 NOT NULL,
	"completion_tokens" bigint DEFAULT 0 NOT NULL,
	"reasoning_tokens" bigint DEFAULT 0 NOT NULL,
	"usage_nanos" bigint DEFAULT 0 NOT NULL,
	"byok_usage_nanos" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "activity_daily_day_workspace_id_key_hash_user_id_model_provider_name_endpoint_id_pk" PRIMARY KEY("day","workspace_id","key_hash","user_id","model","provider_name","endpoint_id")
);
--> statement-breakpoint
CREATE TABLE "generation_feedback" (
	"id" text PRIMARY KEY NOT NULL,
	"generation_id" text NOT NULL,
	"key_hash" text NOT NULL,
	"category" text NOT NULL,
	"comment" text,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workspace_budgets" (
	"id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"period" text NOT NULL,
	"limit_nanos" bigint NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "workspace_budgets_workspace_id_period_pk" PRIMARY KEY("workspace_id","period")
);
--> statement-breakpoint
CREATE TABLE "workspace_usage" (
	"workspace_id" text PRIMARY KEY NOT NULL,
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
	"held" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "workspace_id" text;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "workspace_amount_nanos" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "generation_feedback_generation" ON "generation_feedback" USING btree ("generation_id","created_at");