// Product listing and multilingual search (contract 4, 9.3): the statements of search-sql.ts put
// together into one answer (page, total with its relation, category facets with theirs), cached
// by list-cache.ts per query with per-change invalidation.
import type { Db } from "@/lib/db/client";
import { RESULT_WINDOW, type ProductListInput } from "@/lib/schemas/products";
import { categorySubtree } from "./catalog-feed";
import { localizedName } from "./categories";
import { cachedJson, type Computed, type ListMatcher } from "./list-cache";
import { productView } from "./product-view";
import { CANDIDATES, cappedCountQuery, facetQuery, filters, isRanked, pageLimit, productRowsQuery, rankedRowsQuery, searchTerms } from "./search-sql";

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
export async function searchProductsJson(db: Db, q: ProductListInput, opts: SearchOptions): Promise<Buffer> {
  // A store listing its own products sees its hidden ones too: that answer is its own, not cached.
  if (opts.ownStore && q.sellerId === opts.ownStore) return Buffer.from(JSON.stringify((await runSearch(db, q, opts)).value), "utf8");
  const spec = { matcher: await matcherFor(db, q), writerStore: opts.ownStore };
  return cachedJson(db, JSON.stringify([q, opts.facets]), spec, () => runSearch(db, q, { facets: opts.facets }));
}

/** The same answer as a value (pages). */
export async function searchProducts(db: Db, q: ProductListInput, opts: SearchOptions): Promise<SearchResult> {
  return JSON.parse((await searchProductsJson(db, q, opts)).toString("utf8")) as SearchResult;
}

/** One page of products without the total (pages showing a few related products). */
export async function listProducts(db: Db, q: ProductListInput) {
  return views(await productRowsQuery(db, q), q.locale);
}

async function matcherFor(db: Db, q: ProductListInput): Promise<ListMatcher> {
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
  };
}

type Row = Awaited<ReturnType<typeof productRowsQuery>>[number];
const views = (rows: Row[], locale: string) =>
  rows.map((r) => productView(r.p, { id: r.p.sellerId, companyName: r.sellerName, country: r.sellerCountry }, localizedName(r.categoryNames, locale)));

async function runSearch(db: Db, q: ProductListInput, opts: SearchOptions): Promise<Computed<SearchResult>> {
  const offset = (q.page - 1) * q.limit;
  const limit = pageLimit(q);
  const ranked = isRanked(q);
  const where = filters(q, { withCategory: true, ownStore: opts.ownStore });
  const facetWhere = filters(q, { withCategory: false });
  // Independent statements: on PostgreSQL they run side by side on two connections.
  const [first, facetRows] = await Promise.all([ranked ? rankedRowsQuery(db, q, opts.ownStore) : productRowsQuery(db, q, opts.ownStore), opts.facets ? facetQuery(db, facetWhere) : undefined]);
  let rows: Row[] = first;
  let found: number | null = null;
  let candidates: string[] | undefined;
  if (ranked) {
    const rankedRows = first as Awaited<ReturnType<typeof rankedRowsQuery>>;
    found = rankedRows[0]?.found ?? null;
    candidates = rankedRows.find((r) => r.candidates)?.candidates ?? undefined;
    // A page reaching past the ranked candidates continues with the next matches, newest first.
    if (found !== null && found > CANDIDATES && rows.length < limit) {
      const from = Math.max(offset, CANDIDATES);
      const shownIds = new Set(rows.map((r) => r.p.id));
      const tail = await productRowsQuery(db, q, opts.ownStore, { offset: from, limit: offset + limit - from });
      rows = [...rows, ...tail.filter((r) => !shownIds.has(r.p.id))].slice(0, limit);
    }
  }

  // The total: known from the candidates or from a page that is not full; otherwise counted (to
  // the window's end), by the facet statement when it counted the very same matches.
  let total: number;
  if (ranked && found !== null && found <= CANDIDATES) total = found;
  else if (!ranked && rows.length < limit && (rows.length > 0 || q.page === 1)) total = offset + rows.length;
  else if (facetRows && !q.category) total = facetRows[0]?.total ?? 0;
  else total = Number((await cappedCountQuery(db, where))[0]?.n ?? 0);
  const totalRelation: Relation = total > RESULT_WINDOW ? "gte" : "eq";
  const page: SearchResult = { products: views(rows, q.locale), page: q.page, limit: q.limit, total: Math.min(total, RESULT_WINDOW), totalRelation };
  // The candidates matter to the cache only while nothing else in the answer depends on other matches.
  const bounded = totalRelation === "gte" && (!opts.facets || !q.category) && candidates ? candidates : undefined;
  if (!facetRows) return { value: page, candidates: bounded };

  const facetTotal = facetRows[0]?.total ?? 0;
  const exact = facetTotal <= RESULT_WINDOW;
  const counted = exact ? facetRows : await facetQuery(db, facetWhere, { newest: true });
  const facets = counted.slice(0, 50).map((f) => ({ id: f.id, name: localizedName(f.names, q.locale), count: Number(f.n) }));
  return { value: { ...page, facets: { categories: facets }, facetsRelation: exact ? "eq" : "gte" }, candidates: bounded };
}
