-- Rows past their use are swept by age (issue #12 notes: both tables only grew): Idempotency-Key answers after
-- their 24 hours (contract 1), sessions once neither usable nor needed to recognize a known address.
CREATE INDEX "sessions_created_idx" ON "sessions" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");