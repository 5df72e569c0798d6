-- How many listed products hold each whole word and CJK n-gram (issue #12, lib/db/schema/infra.ts
-- catalogTermCounts): the floor of a one-word search read 11,001 entries of the keyword index and
-- visited 8,000 heap pages to prove "at least 10,000" (28 ms for "lamp" at 100k products, 150 ms at 1M);
-- the sum of a term's stripes proves it in one index probe. Triggers keep it in the writer's transaction.
CREATE TABLE "catalog_term_counts" (
	"source" text NOT NULL,
	"term" text NOT NULL,
	"stripe" integer NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "catalog_term_counts_source_term_stripe_pk" PRIMARY KEY("source","term","stripe")
);
--> statement-breakpoint
-- One product's terms leaving (`gone`, -1) or arriving (`came`, +1), added to the writer's stripe in term
-- order (two writers sharing a stripe lock its rows in the same order). Terms in both cancel out: an
-- update that keeps the words writes nothing.
CREATE OR REPLACE FUNCTION catalog_term_counts_add(gone_tokens text[], gone_grams text[], came_tokens text[], came_grams text[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO catalog_term_counts AS c (source, term, stripe, n)
  SELECT d.source, d.term, pg_backend_pid() % 16, sum(d.delta)::int
  FROM (
    SELECT DISTINCT 'tokens' AS source, t AS term, -1 AS delta FROM unnest(gone_tokens) t
    UNION ALL SELECT DISTINCT 'tokens', t, 1 FROM unnest(came_tokens) t
    UNION ALL SELECT DISTINCT 'cjk_grams', t, -1 FROM unnest(gone_grams) t
    UNION ALL SELECT DISTINCT 'cjk_grams', t, 1 FROM unnest(came_grams) t
  ) d
  WHERE d.term IS NOT NULL
  GROUP BY d.source, d.term
  HAVING sum(d.delta) <> 0
  ORDER BY d.source, d.term
  ON CONFLICT (source, term, stripe) DO UPDATE SET n = c.n + excluded.n
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION catalog_term_counts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.deleted_at IS NULL AND NOT NEW.is_hidden THEN
      PERFORM catalog_term_counts_add(NULL, NULL, NEW.tokens, NEW.cjk_grams);
    END IF;
  ELSIF TG_OP = 'DELETE' THEN
    IF OLD.deleted_at IS NULL AND NOT OLD.is_hidden THEN
      PERFORM catalog_term_counts_add(OLD.tokens, OLD.cjk_grams, NULL, NULL);
    END IF;
  ELSE
    PERFORM catalog_term_counts_add(
      CASE WHEN OLD.deleted_at IS NULL AND NOT OLD.is_hidden THEN OLD.tokens END,
      CASE WHEN OLD.deleted_at IS NULL AND NOT OLD.is_hidden THEN OLD.cjk_grams END,
      CASE WHEN NEW.deleted_at IS NULL AND NOT NEW.is_hidden THEN NEW.tokens END,
      CASE WHEN NEW.deleted_at IS NULL AND NOT NEW.is_hidden THEN NEW.cjk_grams END);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- Every count again from the products (this migration's backfill; a bulk load that disabled the triggers).
CREATE OR REPLACE FUNCTION catalog_term_counts_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM catalog_term_counts;
  INSERT INTO catalog_term_counts (source, term, stripe, n)
  SELECT 'tokens', t, 0, count(*)::int
  FROM products p CROSS JOIN LATERAL (SELECT DISTINCT t FROM unnest(p.tokens) t) w
  WHERE p.deleted_at IS NULL AND NOT p.is_hidden AND t IS NOT NULL GROUP BY t;
  INSERT INTO catalog_term_counts (source, term, stripe, n)
  SELECT 'cjk_grams', t, 0, count(*)::int
  FROM products p CROSS JOIN LATERAL (SELECT DISTINCT t FROM unnest(p.cjk_grams) t) w
  WHERE p.deleted_at IS NULL AND NOT p.is_hidden AND t IS NOT NULL GROUP BY t;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION catalog_term_counts_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM catalog_term_counts;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER products_term_counts_insert_delete AFTER INSERT OR DELETE ON products FOR EACH ROW EXECUTE FUNCTION catalog_term_counts_changed();
--> statement-breakpoint
CREATE TRIGGER products_term_counts_update AFTER UPDATE ON products FOR EACH ROW
  WHEN (OLD.tokens IS DISTINCT FROM NEW.tokens OR OLD.cjk_grams IS DISTINCT FROM NEW.cjk_grams
    OR (OLD.deleted_at IS NULL AND NOT OLD.is_hidden) <> (NEW.deleted_at IS NULL AND NOT NEW.is_hidden))
  EXECUTE FUNCTION catalog_term_counts_changed();
--> statement-breakpoint
CREATE TRIGGER products_term_counts_truncate AFTER TRUNCATE ON products FOR EACH STATEMENT EXECUTE FUNCTION catalog_term_counts_truncated();
--> statement-breakpoint
SELECT catalog_term_counts_rebuild();
