ALTER TABLE "products" ADD COLUMN "reference_price" numeric(14, 2);--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "reference_currency" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "placed_at" timestamp with time zone;--> statement-breakpoint
-- Orders that reached their store before this column existed: everything placed at once or released,
-- and cancelled orders unless their guardian never released them (a held order the buyer cancelled).
UPDATE "orders" SET "placed_at" = "created_at"
WHERE "status" IN ('placed', 'confirmed', 'fulfilled')
   OR ("status" = 'cancelled' AND NOT EXISTS (
        SELECT 1 FROM "approvals" a WHERE a."kind" = 'order' AND a."subject_id" = "orders"."id" AND a."status" <> 'approved'));
