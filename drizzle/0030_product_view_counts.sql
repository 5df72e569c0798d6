-- Product views as counts per product and UTC minute (issue #12, lib/services/catalog/views.ts): a row per
-- view grew by the page load (thousands a second on a busy product, each written with two index entries)
-- while analytics only read per-day sums. The views recorded so far are carried over as counts.
CREATE TABLE "product_view_counts" (
	"product_id" text NOT NULL,
	"seller_id" text NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"views" integer NOT NULL,
	CONSTRAINT "product_view_counts_product_id_minute_pk" PRIMARY KEY("product_id","minute")
);
--> statement-breakpoint
INSERT INTO "product_view_counts" ("product_id", "seller_id", "minute", "views")
  SELECT "product_id", min("seller_id"), date_trunc('minute', "created_at"), count(*)::int
  FROM "product_views" GROUP BY "product_id", date_trunc('minute', "created_at");--> statement-breakpoint
DROP TABLE "product_views" CASCADE;--> statement-breakpoint
ALTER TABLE "product_view_counts" ADD CONSTRAINT "product_view_counts_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_view_counts_seller_minute_idx" ON "product_view_counts" USING btree ("seller_id","minute");