-- A changed product's state also carries what its relevance score reads (search-sql.ts termScore): its
-- normalized title, keywords and whole words. A cached ranking can then tell, without the database,
-- whether a candidate's new text moves it onto or off the page it shows (issue #12). Rows written before
-- this have none of the three: such a change is treated as one that can.
CREATE OR REPLACE FUNCTION catalog_product_state(p products) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('live', p.deleted_at IS NULL AND NOT p.is_hidden, 'category', p.category_id,
    'price', p.price::text, 'currency', p.currency, 'moq', p.moq, 'oem', p.accepts_oem,
    'seller', p.seller_id, 'booth', p.booth_id, 'text', p.search_text,
    'created', (extract(epoch from p.created_at) * 1000000)::bigint::float8,
    'title', p.title_norm, 'keywords', to_jsonb(p.keywords_norm), 'tokens', to_jsonb(p.tokens))
$$;
