-- A store's products newest first in one index walk (issue #12): the product page's related list (the
-- store's newest) and the page cache's version of it (lib/pages/versions.ts) read a few rows, not the store's
-- every product.
DROP INDEX "products_seller_idx";--> statement-breakpoint
CREATE INDEX "products_seller_idx" ON "products" USING btree ("seller_id","created_at");