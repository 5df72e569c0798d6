-- The product search indexes take each write's entries at once (issue #12): with GIN's pending list every
-- search scanned up to 4 MB of unmerged entries while sellers wrote. Set in place (no rebuild), then the
-- entries already pending are merged.
ALTER INDEX "products_search_trgm_idx" SET (fastupdate = false);--> statement-breakpoint
ALTER INDEX "products_cjk_grams_idx" SET (fastupdate = false);--> statement-breakpoint
ALTER INDEX "products_tokens_idx" SET (fastupdate = false);--> statement-breakpoint
ALTER INDEX "products_keywords_norm_idx" SET (fastupdate = false);--> statement-breakpoint
SELECT gin_clean_pending_list('products_search_trgm_idx'::regclass), gin_clean_pending_list('products_cjk_grams_idx'::regclass),
  gin_clean_pending_list('products_tokens_idx'::regclass), gin_clean_pending_list('products_keywords_norm_idx'::regclass);
