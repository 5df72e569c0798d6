CREATE TABLE "fx_rates" (
	"id" text PRIMARY KEY NOT NULL,
	"currency" text NOT NULL,
	"per_usd" numeric(20, 8) NOT NULL,
	"rate_date" date NOT NULL,
	"set_by" text,
	"set_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "fx_rates_current_idx" ON "fx_rates" USING btree ("currency","rate_date","set_at");