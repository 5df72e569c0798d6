-- A changed product's state also says when it was created (microseconds since 1970, as the list cache
-- keeps its ranked candidates): a product older than every candidate a cached search kept cannot enter
-- its ranking, so a change to it leaves that answer as it is (issue #12). Rows written before this
-- have no "created": such a change is treated as one that can.
CREATE OR REPLACE FUNCTION catalog_product_state(p products) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('live', p.deleted_at IS NULL AND NOT p.is_hidden, 'category', p.category_id,
    'price', p.price::text, 'currency', p.currency, 'moq', p.moq, 'oem', p.accepts_oem,
    'seller', p.seller_id, 'booth', p.booth_id, 'text', p.search_text,
    'created', (extract(epoch from p.created_at) * 1000000)::bigint::float8)
$$;
