CREATE TABLE "catalog_changes" (
	"seq" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "catalog_changes_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tx" bigint DEFAULT (pg_current_xact_id()::text::bigint) NOT NULL,
	"at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"kind" text NOT NULL,
	"product_id" text,
	"seller_id" text,
	"before" jsonb,
	"after" jsonb
);
--> statement-breakpoint
CREATE INDEX "catalog_changes_tx_idx" ON "catalog_changes" USING btree ("tx");--> statement-breakpoint
CREATE INDEX "catalog_changes_seller_at_idx" ON "catalog_changes" USING btree ("seller_id","at");--> statement-breakpoint
-- The catalog's change feed replaces the one catalog_version row (issue #12): that row, bumped by
-- every catalog write at its commit, serialized all writers and emptied every instance's list
-- cache on any change. Now each change is a row of its own (no row is shared by two writers), with
-- the product's searchable state before and after, so an instance polling the feed can drop
-- exactly the cached lists the change can affect (lib/services/catalog/catalog-feed.ts).
DROP TRIGGER IF EXISTS products_catalog_insert_delete ON products;
--> statement-breakpoint
DROP TRIGGER IF EXISTS products_catalog_update ON products;
--> statement-breakpoint
DROP TRIGGER IF EXISTS seller_profiles_catalog ON seller_profiles;
--> statement-breakpoint
DROP TRIGGER IF EXISTS categories_catalog ON categories;
--> statement-breakpoint
DROP TRIGGER IF EXISTS booths_catalog ON booths;
--> statement-breakpoint
DROP TRIGGER IF EXISTS products_catalog_truncate ON products;
--> statement-breakpoint
DROP TRIGGER IF EXISTS categories_catalog_truncate ON categories;
--> statement-breakpoint
DROP FUNCTION IF EXISTS catalog_changed();
--> statement-breakpoint
-- What a list can filter on and show of one product (lib/db/schema/infra.ts CatalogState).
CREATE OR REPLACE FUNCTION catalog_product_state(p products) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('live', p.deleted_at IS NULL AND NOT p.is_hidden, 'category', p.category_id,
    'price', p.price::text, 'currency', p.currency, 'moq', p.moq, 'oem', p.accepts_oem,
    'seller', p.seller_id, 'booth', p.booth_id, 'text', p.search_text)
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION catalog_product_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO catalog_changes (kind, product_id, seller_id, after) VALUES ('product', NEW.id, NEW.seller_id, catalog_product_state(NEW));
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO catalog_changes (kind, product_id, seller_id, before) VALUES ('product', OLD.id, OLD.seller_id, catalog_product_state(OLD));
  ELSE
    INSERT INTO catalog_changes (kind, product_id, seller_id, before, after) VALUES ('product', NEW.id, NEW.seller_id, catalog_product_state(OLD), catalog_product_state(NEW));
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION catalog_other_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'seller_profiles' THEN
    INSERT INTO catalog_changes (kind, seller_id) VALUES ('seller', NEW.id);
  ELSIF TG_TABLE_NAME = 'booths' THEN
    INSERT INTO catalog_changes (kind, seller_id) VALUES ('booth', CASE WHEN TG_OP = 'DELETE' THEN OLD.seller_id ELSE NEW.seller_id END);
  ELSIF TG_OP = 'TRUNCATE' THEN
    INSERT INTO catalog_changes (kind) VALUES ('all');
  ELSE
    INSERT INTO catalog_changes (kind) VALUES ('category');
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER products_catalog_insert_delete AFTER INSERT OR DELETE ON products FOR EACH ROW EXECUTE FUNCTION catalog_product_changed();
--> statement-breakpoint
-- Counting a view (view_count alone) does not change the catalog: lists re-read the counters.
CREATE TRIGGER products_catalog_update AFTER UPDATE ON products FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'view_count') IS DISTINCT FROM (to_jsonb(NEW) - 'view_count')) EXECUTE FUNCTION catalog_product_changed();
--> statement-breakpoint
CREATE TRIGGER seller_profiles_catalog AFTER UPDATE OF company_name, country ON seller_profiles FOR EACH ROW
  WHEN (OLD.company_name IS DISTINCT FROM NEW.company_name OR OLD.country IS DISTINCT FROM NEW.country) EXECUTE FUNCTION catalog_other_changed();
--> statement-breakpoint
CREATE TRIGGER booths_catalog AFTER UPDATE OF exhibition_id, is_published OR DELETE ON booths FOR EACH ROW EXECUTE FUNCTION catalog_other_changed();
--> statement-breakpoint
CREATE TRIGGER categories_catalog AFTER INSERT OR UPDATE OR DELETE ON categories FOR EACH STATEMENT EXECUTE FUNCTION catalog_other_changed();
--> statement-breakpoint
CREATE TRIGGER products_catalog_truncate AFTER TRUNCATE ON products FOR EACH STATEMENT EXECUTE FUNCTION catalog_other_changed();
--> statement-breakpoint
CREATE TRIGGER categories_catalog_truncate AFTER TRUNCATE ON categories FOR EACH STATEMENT EXECUTE FUNCTION catalog_other_changed();
