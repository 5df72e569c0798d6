-- The page fence (issue #12, lib/db/page-fence.ts): an instance serves a cached product, booth or store
-- page without reading its version while it holds advisory lock 724113101 in share mode, and no
-- write of what those pages show can commit meanwhile. Every such write passes page_fence() once per
-- transaction: it holds 724113102 in share mode until it ends (so no instance takes the fence while
-- the write is under way), and when an instance holds the fence, it raises a notice (its own
-- instance lets go at once) and waits until every holder has let go (other instances see the waiter
-- within their poll). On PGlite (one process, one session: `expo.page_fence_notify` set) the
-- process learns of each committed write by a notification instead.
CREATE OR REPLACE FUNCTION page_fence() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('expo.page_fence', true) = 'passed' THEN
    RETURN NULL;
  END IF;
  PERFORM set_config('expo.page_fence', 'passed', true);
  IF current_setting('expo.page_fence_notify', true) = 'on' THEN
    PERFORM pg_notify('expo_page_fence', '');
    RETURN NULL;
  END IF;
  PERFORM pg_advisory_xact_lock_shared(724113102);
  IF pg_try_advisory_lock(724113101) THEN
    PERFORM pg_advisory_unlock(724113101);
  ELSE
    RAISE NOTICE 'expo-page-fence';
    PERFORM pg_advisory_lock(724113101);
    PERFORM pg_advisory_unlock(724113101);
  END IF;
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
-- What lib/pages/versions.ts reads: products (a view counted is not a change), their categories,
-- stores, booths and exhibitions.
CREATE TRIGGER products_page_fence_update AFTER UPDATE ON products FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'view_count') IS DISTINCT FROM (to_jsonb(NEW) - 'view_count')) EXECUTE FUNCTION page_fence();
--> statement-breakpoint
CREATE TRIGGER products_page_fence AFTER INSERT OR DELETE OR TRUNCATE ON products FOR EACH STATEMENT EXECUTE FUNCTION page_fence();
--> statement-breakpoint
CREATE TRIGGER categories_page_fence AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON categories FOR EACH STATEMENT EXECUTE FUNCTION page_fence();
--> statement-breakpoint
CREATE TRIGGER seller_profiles_page_fence AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON seller_profiles FOR EACH STATEMENT EXECUTE FUNCTION page_fence();
--> statement-breakpoint
CREATE TRIGGER booths_page_fence AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON booths FOR EACH STATEMENT EXECUTE FUNCTION page_fence();
--> statement-breakpoint
CREATE TRIGGER exhibitions_page_fence AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON exhibitions FOR EACH STATEMENT EXECUTE FUNCTION page_fence();
