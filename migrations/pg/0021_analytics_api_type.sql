ALTER TABLE "analytics_hourly" ADD COLUMN "api_type" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "analytics_hourly" ADD COLUMN "media_completions" bigint DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "analytics_hourly" DROP CONSTRAINT "analytics_hourly_hour_workspace_id_key_hash_user_id_model_provider_name_finish_reason_pk";--> statement-breakpoint
ALTER TABLE "analytics_hourly" ADD CONSTRAINT "analytics_hourly_hour_workspace_id_key_hash_user_id_model_provider_name_finish_reason_api_type_pk" PRIMARY KEY("hour","workspace_id","key_hash","user_id","model","provider_name","finish_reason","api_type");
