-- The page fence (issue #12, lib/db/page-fence.ts): an instance serves a cached product, booth or store
-- page without reading its version while it holds advisory lock 724113101 in share mode, and no
-- write of what those pages show can commit meanwhile. Every such write calls page_fence_pass() once
-- per transaction (from the catalog feed's triggers of migration 0008 for products and categories, from
-- page_fence() triggers for stores, booths and exhibitions): it holds 724113102 in share mode until
-- the transaction ends (so no instance takes the fence while the write is under way), and when an
-- instance holds the fence, it raises a notice (its own instance lets go at once) and waits until
-- every holder has let go (others hear a NOTIFY from the writer's instance, or see the waiter in their
-- poll). On PGlite (one process, one session: `expo.page_fence_notify` set) the process learns of each
-- committed write by a notification instead.
CREATE OR REPLACE FUNCTION page_fence_pass() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('expo.page_fence', true) = 'passed' THEN
    RETURN;
  END IF;
  PERFORM set_config('expo.page_fence', 'passed', true);
  IF current_setting('expo.page_fence_notify', true) = 'on' THEN
    PERFORM pg_notify('expo_page_fence', '');
    RETURN;
  END IF;
  PERFORM pg_advisory_xact_lock_shared(724113102);
  IF pg_try_advisory_lock(724113101) THEN
    PERFORM pg_advisory_unlock(724113101);
  ELSE
    RAISE NOTICE 'expo-page-fence';
    PERFORM pg_advisory_lock(724113101);
    PERFORM pg_advisory_unlock(724113101);
  END IF;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION page_fence() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM page_fence_pass();
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- Taken only while no fenced write is under way (724113102 free), and never waits.
CREATE OR REPLACE FUNCTION page_fence_acquire() RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF NOT pg_try_advisory_lock(724113102) THEN
    RETURN false;
  END IF;
  IF NOT pg_try_advisory_lock_shared(724113101) THEN
    PERFORM pg_advisory_unlock(724113102);
    RETURN false;
  END IF;
  PERFORM pg_advisory_unlock(724113102);
  RETURN true;
END;
$$;
--> statement-breakpoint
-- What lib/pages/versions.ts reads. Products (a view counted is not a change) and categories: the catalog
-- feed's triggers (migration 0008) already fire on exactly those writes, so its functions pass the fence
-- too (their bodies as in 0008, plus that first line).
CREATE OR REPLACE FUNCTION catalog_product_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM page_fence_pass();
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
  PERFORM page_fence_pass();
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
-- Stores, booths and exhibitions: every write (the feed's triggers there fire only on what lists show).
CREATE TRIGGER seller_profiles_page_fence AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON seller_profiles FOR EACH STATEMENT EXECUTE FUNCTION page_fence();
--> statement-breakpoint
CREATE TRIGGER booths_page_fence AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON booths FOR EACH STATEMENT EXECUTE FUNCTION page_fence();
--> statement-breakpoint
CREATE TRIGGER exhibitions_page_fence AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON exhibitions FOR EACH STATEMENT EXECUTE FUNCTION page_fence();
