-- What a search reads of a product stays in its row (issue #12). A product row is ~2.4 kB, most of it the
-- search columns (normalized keywords, tokens, n-grams, search text: ~400 bytes each) and the keywords as
-- written, just past the default 2 kB toast target: PostgreSQL moved the largest columns out of the row
-- until it fit, search columns included, and while a row stayed too large, ids as short as 36 bytes too (a
-- category id the walk reads from every row). A head-term walk reads ~1,400 rows for its 1,101 newest
-- matches and filters, tests and scores them on those columns: at 100k products it read 3,163 buffers in
-- 5.6 ms with a sixth of the rows toasted, 662 in 3.5 ms with the search columns kept in the row.
-- MAIN keeps a column in the row (compressed there if need be, moved out only past a whole page): the
-- search columns and the short ids and codes the filters test. What goes to the toast table of a large row
-- is the keywords as written, the title, the description, the images and the price tiers, read only for
-- the products a page shows. (A 4 kB target for whole rows walked as fast, but doubled the heap and left
-- fewer view-counter updates in place.) Rows written before this keep their toasted values until they are
-- written again (or VACUUM FULL).
ALTER TABLE "products"
  ALTER COLUMN "id" SET STORAGE MAIN,
  ALTER COLUMN "seller_id" SET STORAGE MAIN,
  ALTER COLUMN "category_id" SET STORAGE MAIN,
  ALTER COLUMN "booth_id" SET STORAGE MAIN,
  ALTER COLUMN "currency" SET STORAGE MAIN,
  ALTER COLUMN "reference_currency" SET STORAGE MAIN,
  ALTER COLUMN "search_text" SET STORAGE MAIN,
  ALTER COLUMN "title_norm" SET STORAGE MAIN,
  ALTER COLUMN "tokens" SET STORAGE MAIN,
  ALTER COLUMN "keywords_norm" SET STORAGE MAIN,
  ALTER COLUMN "cjk_grams" SET STORAGE MAIN;
