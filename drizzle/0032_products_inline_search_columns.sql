-- Products keep rows of up to 4 kB whole in the table (issue #12). A product row is ~2.4 kB, most of it
-- the search columns (keywords, their normalized forms, tokens, n-grams, search text: ~400 bytes each),
-- which passed the default 2 kB toast target: PostgreSQL then moved one of them out of the row, to be
-- fetched from the toast table by index whenever a search read it. A head-term walk reads ~1,400 rows
-- for its 1,101 newest matches and scores them from three of those columns: at 100k products its
-- text test and scores took 9.4 ms with a sixth of the rows toasted, 6.4 ms with every row whole
-- (and the table with its toast took 296 MB, 244 MB whole: the toast's chunks cost more than they saved).
-- Rows written before this keep their toasted values until they are written again.
ALTER TABLE "products" SET (toast_tuple_target = 4096);
