-- Only the products whose search columns an older normalization computed (issue #12): the start-up walk
-- (lib/search/renormalize.ts) finds them here, and a start with nothing stale reads one empty index page
-- instead of the whole table (51.6 s of the database's time at 1,000,000 products). Current rows are not in
-- it, so writes add no entry. Raising SEARCH_NORMALIZATION_VERSION generates a new one.
CREATE INDEX "products_search_stale_idx" ON "products" USING btree ("id") WHERE "products"."search_version" < 3;
