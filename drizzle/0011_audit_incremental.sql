CREATE TABLE "audit_checkpoints" (
	"ai_user_id" text PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL,
	"hash" text NOT NULL,
	"verified_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_rate_windows" (
	"ai_user_id" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"seq" bigint NOT NULL,
	"refused" bigint NOT NULL,
	CONSTRAINT "audit_rate_windows_ai_user_id_window_start_pk" PRIMARY KEY("ai_user_id","window_start")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "audit_rate_windows_seq_key" ON "audit_rate_windows" USING btree ("ai_user_id","seq");--> statement-breakpoint
CREATE INDEX "audit_logs_account_action_idx" ON "audit_logs" USING btree ("ai_user_id","action","seq");