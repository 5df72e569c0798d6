DROP INDEX "notifications_user_unread_idx";--> statement-breakpoint
CREATE INDEX "seller_profiles_public_newest_idx" ON "seller_profiles" USING btree ("created_at","id") WHERE "seller_profiles"."is_public";--> statement-breakpoint
CREATE INDEX "offers_reply_idx" ON "offers" USING btree ("reply_id") WHERE "offers"."reply_id" is not null;--> statement-breakpoint
CREATE INDEX "tasks_creator_idx" ON "tasks" USING btree ("created_by","created_at");--> statement-breakpoint
CREATE INDEX "tasks_claimer_idx" ON "tasks" USING btree ("claimed_by","created_at") WHERE "tasks"."claimed_by" is not null;--> statement-breakpoint
CREATE INDEX "notifications_user_unread_idx" ON "notifications" USING btree ("user_id","kind","subject_id") WHERE "notifications"."read_at" is null;