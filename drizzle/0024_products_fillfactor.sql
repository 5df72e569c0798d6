-- Room on each page of products for a new version of a row (issue #12): a view-count flush rewrote whole
-- rows (~1.9 kB each, four to a full page), and with no room on the page every new version went to another
-- page with an entry in each of the twelve indexes, the four GIN indexes too (hundreds of trigrams a row):
-- 50-140 ms for a flush of 20 counters on the bench's catalog, holding the rows' locks meanwhile, and 80% of
-- all product updates were of that kind. With a fifth of each page free, a change to a column no index reads
-- (the view counter) stays on its page and touches no index (a HOT update: 93% of 1,000 random counter
-- updates, against 20%). New rows and moved ones get the room; `VACUUM FULL products` gives it to the pages
-- written before this (docs/scaling.md).
ALTER TABLE "products" SET (fillfactor = 80);
