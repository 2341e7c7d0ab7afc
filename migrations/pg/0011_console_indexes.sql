CREATE INDEX "workspace_members_user" ON "workspace_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "generations_model_time" ON "generations" USING btree ("model","created_at","id");--> statement-breakpoint
CREATE INDEX "generations_provider_time" ON "generations" USING btree ("provider_name","created_at","id");--> statement-breakpoint
CREATE INDEX "generations_finish_time" ON "generations" USING btree ("finish_reason","created_at","id");--> statement-breakpoint
CREATE INDEX "generations_cancelled_time" ON "generations" USING btree ("cancelled","created_at","id");