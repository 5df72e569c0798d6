// Product listing and multilingual search (contract 4, 9.3): the statements of search-sql.ts put
// together into one answer (page, total with its relation, category facets with theirs), cached
// by list-cache.ts per query with per-change invalidation.
import type { Db } from "@/lib/db/client";
import { RESULT_WINDOW, type ProductListInput } from "@/lib/schemas/products";
import { categorySubtree } from "./catalog-feed";
import { localizedName } from "./categories";
import { cachedJson, type Computed, type ListAnswer, type ListMatcher } from "./list-cache";
import { productView } from "./product-view";
import { cachedAggregate, type Aggregate } from "./aggregate-cache";
import {
  CANDIDATES,
  cappedCountQuery,
  facetQuery,
  filters,
  isRanked,
  pageLimit,
  planned,
  productRowsQuery,
  rankedRowsQuery,
  searchTerms,
  WALK_FROM,
  type FacetRow,
  type PlanMode,
} from "./search-sql";

export { productQueries, productRowsQuery } from "./search-sql";

type SearchOptions = {
  facets: boolean;
  /** The caller's own store: it lists its hidden products, and reads its own writes at once. */
  ownStore?: string | null;
};
type Relation = "eq" | "gte";
type Facet = { id: string; name: string; count: number };
export type SearchResult = {
  products: ReturnType<typeof views>;
  page: number;
  limit: number;
  total: number;
  totalRelation: Relation;
  facets?: { categories: Facet[] };
  facetsRelation?: Relation;
};

/** A list or search answer as UTF-8 JSON (what the API sends), from the cache when it can. */
export async function searchProductsJson(db: Db, q: ProductListInput, opts: SearchOptions): Promise<ListAnswer> {
  // A store listing its own products sees its hidden ones too: that answer is its own, not cached.
  if (opts.ownStore && q.sellerId === opts.ownStore)
    return { body: Buffer.from(JSON.stringify((await runSearch(db, q, { ...opts, exact: true })).value), "utf8"), cache: "bypass" };
  const spec = { matcher: () => matcherFor(db, q, opts.facets), writerStore: opts.ownStore };
  return cachedJson(db, JSON.stringify([q, opts.facets]), spec, (exact, among) => runSearch(db, q, { facets: opts.facets, exact, among }));
}

/** The same answer as a value (pages). */
export async function searchProducts(db: Db, q: ProductListInput, opts: SearchOptions): Promise<SearchResult> {
  return JSON.parse((await searchProductsJson(db, q, opts)).body.toString("utf8")) as SearchResult;
}

/** One page of products without the total (pages showing a few related products). */
export async function listProducts(db: Db, q: ProductListInput) {
  return views(await productRowsQuery(db, q), q.locale, false);
}

/** Which changed products can alter a cached answer to `q` (exported so tests hold it to the database). */
export async function matcherFor(db: Db, q: ProductListInput, facets: boolean): Promise<ListMatcher> {
  return {
    terms: searchTerms(q),
    categories: q.category ? await categorySubtree(db, q.category) : null,
    minPrice: q.minPrice,
    maxPrice: q.maxPrice,
    currency: q.currency,
    maxMoq: q.maxMoq,
    acceptsOEM: q.acceptsOEM,
    sellerId: q.sellerId,
    boothId: q.boothId,
    exhibition: !!q.exhibitionId,
    facets,
    priceOrder: q.sort === "price_asc" || q.sort === "price_desc",
  };
}

type Row = Awaited<ReturnType<typeof productRowsQuery>>[number];
type RankedRows = Awaited<ReturnType<typeof rankedRowsQuery>>;
/** `ownStore`: the store's own list (its drafts' booth ids are its own to see). */
const views = (rows: Row[], locale: string, ownStore: boolean) =>
  rows.map((r) =>
    productView(
      r.p,
      { id: r.p.sellerId, companyName: r.sellerName, country: r.sellerCountry },
      localizedName(r.categoryNames, locale),
      ownStore || r.boothPublished,
    ),
  );

/** The part of a query that decides its matches (not its page, order or language). */
function matchKey(q: ProductListInput, withCategory: boolean) {
  const { page: _p, limit: _l, sort: _s, locale: _o, ...rest } = q;
  return withCategory ? rest : { ...rest, category: undefined };
}

/**
 * `among`: every product that can be among the ranked candidates now (the list cache knows it from the
 * previous computation and the changes since); the candidates are then read by primary key instead of
 * collecting every match. Only for pages within the candidates.
 */
async function runSearch(db: Db, q: ProductListInput, opts: SearchOptions & { exact?: boolean; among?: string[] }): Promise<Computed<SearchResult>> {
  const offset = (q.page - 1) * q.limit;
  const limit = pageLimit(q);
  const ranked = isRanked(q);
  const text = searchTerms(q).length > 0;
  const own = !!opts.ownStore && q.sellerId === opts.ownStore;
  const where = filters(q, { withCategory: true, ownStore: opts.ownStore });
  const facetWhere = filters(q, { withCategory: false });
  // Counts and facets are cached apart from pages; not for an exact answer (the writer's own read,
  // a store's own list with its hidden products).
  const aggregate = async <F>(key: unknown, matcherOf: () => Promise<ListMatcher>, compute: () => Promise<Aggregate<F>>) =>
    own || opts.exact ? compute() : cachedAggregate(db, JSON.stringify(key), matcherOf, compute);
  // A text query's matches are collected from the keyword indexes for counting (see PlanMode).
  const counting = <T>(run: (tx: Db) => Promise<T>) => (text ? planned(db, "bitmap", run) : run(db));
  // A first ranked page whose count or facets are computed from every match: the same pass ranks
  // them (rankedRowsQuery `collect`), and the page is kept when that pass held every match.
  let collected: RankedRows | undefined;
  const collects = ranked && q.page === 1 && !own && !opts.among;
  const collect = async (): Promise<Aggregate<FacetRow>> => {
    const rows = await planned(db, "bitmap", (tx) => rankedRowsQuery(tx, q, opts.ownStore, undefined, { collect: true }));
    // An empty first page: nothing matches.
    const n = rows[0]?.found ?? 0;
    if (n <= RESULT_WINDOW) collected = rows;
    return { n, facets: rows.find((r) => r.facets)?.facets ?? [], snapshot: rows[0]?.snapshot };
  };
  const facetCounts = () =>
    aggregate(
      ["facets", matchKey(q, false)],
      () => matcherFor(db, { ...q, category: undefined }, true),
      async () => {
        // Facets ignore the category filter: one pass serves both only without one.
        if (collects && !q.category) return collect();
        const rows = await counting((tx) => facetQuery(tx, facetWhere));
        return { n: rows[0]?.total ?? 0, facets: rows.map(({ id, n, names }) => ({ id, n, names })), snapshot: rows[0]?.snapshot };
      },
    );
  const count = async () =>
    (
      await aggregate(
        ["count", matchKey(q, true), own],
        () => matcherFor(db, q, false),
        async () => {
          if (collects) {
            const { n, snapshot } = await collect();
            return { n, snapshot };
          }
          const [row] = await counting((tx) => cappedCountQuery(tx, where));
          return { n: Number(row?.n ?? 0), snapshot: row?.snapshot };
        },
      )
    ).n;

  // A text query is counted first: the count picks the plan of the page (and is needed anyway
  // unless the page tells). Without text, the page and the facets go side by side.
  const facetAgg = opts.facets ? (text ? await facetCounts() : undefined) : undefined;
  let known: number | null = facetAgg && !q.category ? facetAgg.n : null;
  if (text && known === null) known = await count();
  const mode: PlanMode = known !== null && known > WALK_FROM ? "walk" : "bitmap";
  const among = ranked && opts.among && q.page * q.limit <= CANDIDATES ? opts.among : undefined;
  const page = (tx: Db) => (ranked ? rankedRowsQuery(tx, q, opts.ownStore, among) : productRowsQuery(tx, q, opts.ownStore));
  // With `among` the primary key finds the candidates: no walk through the catalog, no bitmap of every match.
  const [first, facetLater] = await Promise.all([
    collected ?? (text ? planned(db, among ? "walk" : mode, page) : page(db)),
    opts.facets && !text ? facetCounts() : undefined,
  ]);
  const facetsOf = facetAgg ?? facetLater;
  let rows: Row[] = first;
  let found: number | null = null;
  let candidates: string[] | undefined;
  let candidateFacets: FacetRow[] | undefined;
  if (ranked) {
    const rankedRows = first as RankedRows;
    found = rankedRows[0]?.found ?? null;
    const lead = rankedRows.find((r) => r.candidates);
    candidates = lead?.candidates ?? undefined;
    candidateFacets = lead?.facets ?? undefined;
    // A page reaching past the ranked candidates continues with the next matches, newest first.
    if (found !== null && found > CANDIDATES && rows.length < limit) {
      const from = Math.max(offset, CANDIDATES);
      const shownIds = new Set(rows.map((r) => r.p.id));
      const tail = await planned(db, mode, (tx) => productRowsQuery(tx, q, opts.ownStore, { offset: from, limit: offset + limit - from }));
      rows = [...rows, ...tail.filter((r) => !shownIds.has(r.p.id))].slice(0, limit);
    }
  }

  // The total: counted already, or known from the candidates or from a page that is not full;
  // otherwise counted now (past the window's end), by the facet statement when it counted the
  // very same matches.
  let total: number;
  if (known !== null) total = known;
  else if (ranked && found !== null && found <= CANDIDATES) total = found;
  else if (!ranked && rows.length < limit && (rows.length > 0 || q.page === 1)) total = offset + rows.length;
  else if (facetsOf && !q.category) total = facetsOf.n;
  else total = await count();
  const totalRelation: Relation = total > RESULT_WINDOW ? "gte" : "eq";
  const result: SearchResult = { products: views(rows, q.locale, own), page: q.page, limit: q.limit, total: Math.min(total, RESULT_WINDOW), totalRelation };
  // The candidates matter to the cache only while nothing else in the answer depends on other matches.
  const bounded = totalRelation === "gte" && (!opts.facets || !q.category) && candidates ? candidates : undefined;
  // What the next computation of this answer may read instead of every match (list-cache.ts).
  const ranking = ranked && candidates && found !== null ? { ids: candidates, complete: found <= CANDIDATES } : undefined;
  if (!facetsOf) return { value: result, candidates: bounded, ranking };

  // Facets: exact within the window; past it counted over the newest CANDIDATES matches (the ranked
  // statement already did when it ranked the same matches).
  const exact = facetsOf.n <= RESULT_WINDOW;
  const counted = exact
    ? facetsOf.facets!
    : !q.category && candidateFacets
      ? candidateFacets
      : await planned(db, "walk", (tx) => facetQuery(tx, facetWhere, { newest: true }));
  const facets = counted.slice(0, 50).map((f) => ({ id: f.id, name: localizedName(f.names, q.locale), count: Number(f.n) }));
  return { value: { ...result, facets: { categories: facets }, facetsRelation: exact ? "eq" : "gte" }, candidates: bounded, ranking };
}
