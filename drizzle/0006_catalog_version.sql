CREATE TABLE "catalog_version" (
	"id" integer PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- The catalog's version (lib/services/catalog/list-cache.ts): bumped once per transaction, at its
-- commit, by every transaction that changes what a product list or search can show. Deferred
-- constraint triggers take the row lock last, just before the commit, so writers queue on it for
-- the shortest time and cannot deadlock over it.
INSERT INTO "catalog_version" ("id", "version") VALUES (1, 0) ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION catalog_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('expo.catalog_changed', true) IS DISTINCT FROM 'on' THEN
    PERFORM set_config('expo.catalog_changed', 'on', true);
    UPDATE catalog_version SET version = version + 1 WHERE id = 1;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER products_catalog_insert_delete AFTER INSERT OR DELETE ON products DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION catalog_changed();
--> statement-breakpoint
-- Counting a view (view_count alone) does not change the catalog: lists read the live counter.
CREATE CONSTRAINT TRIGGER products_catalog_update AFTER UPDATE ON products DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'view_count') IS DISTINCT FROM (to_jsonb(NEW) - 'view_count')) EXECUTE FUNCTION catalog_changed();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER seller_profiles_catalog AFTER UPDATE OF company_name, country ON seller_profiles DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION catalog_changed();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER categories_catalog AFTER INSERT OR UPDATE OR DELETE ON categories DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION catalog_changed();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER booths_catalog AFTER UPDATE OF exhibition_id, is_published ON booths DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION catalog_changed();
--> statement-breakpoint
CREATE TRIGGER products_catalog_truncate AFTER TRUNCATE ON products FOR EACH STATEMENT EXECUTE FUNCTION catalog_changed();
--> statement-breakpoint
CREATE TRIGGER categories_catalog_truncate AFTER TRUNCATE ON categories FOR EACH STATEMENT EXECUTE FUNCTION catalog_changed();
