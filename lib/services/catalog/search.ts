// Product listing and multilingual search (contract 4, 9.3): the statements of search-sql.ts put
// together into one answer (page, total with its relation, category facets with theirs), cached
// by list-cache.ts per query with per-change invalidation.
import type { Db } from "@/lib/db/client";
import { RESULT_WINDOW, type ProductListInput } from "@/lib/schemas/products";
import { categoryNames, categorySubtree } from "./catalog-feed";
import { localizedName } from "./categories";
import { cachedJson, type Computed, type ListAnswer, type ListMatcher, type RankHint } from "./list-cache";
import { productView } from "./product-view";
import { cachedAggregate, facetOrder, type Aggregate } from "./aggregate-cache";
import { likelyHolds } from "./word-stats";
import {
  CANDIDATES,
  candidateStateQuery,
  cappedCountQuery,
  COUNT_CAP,
  facetQuery,
  FACETS_SHOWN,
  filters,
  floorTerms,
  matchPart,
  isRanked,
  pageLimit,
  planned,
  productRowsQuery,
  rankedRowsQuery,
  runFloor,
  searchTerms,
  shownRowsQuery,
  SPARE,
  WALK_FROM,
  type Candidate,
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
  return cachedJson(db, JSON.stringify([q, opts.facets]), spec, (exact, hint) => runSearch(db, q, { facets: opts.facets, exact, hint }));
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

/** The part of a query that decides its matches (matchPart), with or without its category. */
function matchKey(q: ProductListInput, withCategory: boolean) {
  const rest = matchPart(q);
  return withCategory ? rest : { ...rest, category: undefined };
}

/**
 * A ranked page's rows, the number of matches found (to CANDIDATES + SPARE + 1, or every match collected), the
 * candidates with the SPARE after them, and the candidates' category counts.
 */
type RankedPage = { rows: Row[]; found: number | null; candidates?: Candidate[]; facets?: () => Promise<FacetRow[]> };

function rankedPage(rows: RankedRows): RankedPage {
  const lead = rows.find((r) => r.candidates);
  const facets = lead?.facets;
  return {
    rows,
    found: rows[0]?.found ?? null,
    // Unscored candidates (collected past the window) are never ranked again: that page is not kept.
    candidates: lead?.candidates?.every((c) => c[1] !== null)
      ? lead.candidates.map(([id, score, created, category]) => ({ id, score: score!, created, category }))
      : undefined,
    facets: facets ? async () => facets : undefined,
  };
}

/** Newest first, as the database orders matches (ids are lowercase UUIDs: code-unit order is the collation's). */
const newestFirst = (a: Candidate, b: Candidate) => b.created - a.created || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
const byRank = (a: Candidate, b: Candidate) => b.score - a.score || newestFirst(a, b);

/**
 * A page of the relevance ranking from the list cache's hint (list-cache.ts RankHint): the candidates
 * it kept, still as they were, and the products changed since, read again by primary key. The newest
 * CANDIDATES of them are ranked as rankedRowsQuery ranks the newest matches, without reading the rest.
 * Exported so tests hold it to that statement.
 */
export async function rankFromHint(db: Db, q: ProductListInput, ownStore: string | null | undefined, hint: RankHint): Promise<RankedPage> {
  const reread = hint.reread.length ? await candidateStateQuery(db, q, ownStore, hint.reread) : [];
  const all = [...hint.kept, ...reread].sort(newestFirst);
  const kept = all.slice(0, CANDIDATES + SPARE);
  const ranked = all.slice(0, CANDIDATES);
  const offset = (q.page - 1) * q.limit;
  const pageIds = ranked
    .sort(byRank)
    .slice(offset, offset + pageLimit(q))
    .map((c) => c.id);
  const shown = pageIds.length ? await shownRowsQuery(db, q, ownStore, pageIds) : [];
  const byId = new Map(shown.map((r) => [r.p.id, r]));
  const facets = async () => {
    const n = new Map<string, number>();
    for (const c of ranked) n.set(c.category, (n.get(c.category) ?? 0) + 1);
    return [...n].map(([id, count]) => ({ id, n: count })).sort((a, b) => facetOrder(a.n, a.id, b.n, b.id));
  };
  return { rows: pageIds.flatMap((id) => byId.get(id) ?? []), found: Math.min(all.length, CANDIDATES + SPARE + 1), candidates: kept, facets };
}

/**
 * `hint`: every product that can be among the ranked candidates now, as the list cache knows it from the
 * previous computation and the changes since (rankFromHint). Only for pages within the candidates.
 */
async function runSearch(db: Db, q: ProductListInput, opts: SearchOptions & { exact?: boolean; hint?: RankHint }): Promise<Computed<SearchResult>> {
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
  const collects = ranked && q.page === 1 && !own && !opts.hint;
  // Past COUNT_CAP whole-word matches the total is "at least" the window, whatever the rest hold:
  // no match needs collecting (the page is then ranked from a walk, its facets from the candidates).
  // Asked only of words the statistics call common (word-stats.ts): for the others it would be one
  // more statement before the same count.
  // Whether the floor is asked (and the walk started early, below): asked of the statistics once a search.
  const terms = floorTerms(q);
  let asked: Promise<boolean> | undefined;
  const common = () => (asked ??= terms.length ? likelyHolds(db, terms, COUNT_CAP) : Promise.resolve(false));
  const floor = async (): Promise<Aggregate<FacetRow> | null> => {
    if (!(await common())) return null;
    const [row] = await runFloor(db, q, opts.ownStore);
    return row && Number(row.n) >= COUNT_CAP ? { n: Number(row.n), facets: [], snapshot: row.snapshot } : null;
  };
  const collect = async (): Promise<Aggregate<FacetRow>> => {
    const known = await floor();
    if (known) return known;
    const rows = await planned(db, "bitmap", (tx) => rankedRowsQuery(tx, q, opts.ownStore, { collect: true }));
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
        return { n: rows[0]?.total ?? 0, facets: rows.map(({ id, n }) => ({ id, n })), snapshot: rows[0]?.snapshot };
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
          const known = await floor();
          if (known) return { n: known.n, snapshot: known.snapshot };
          const [row] = await counting((tx) => cappedCountQuery(tx, where));
          return { n: Number(row?.n ?? 0), snapshot: row?.snapshot };
        },
      )
    ).n;

  const hint = ranked && opts.hint && q.page * q.limit <= CANDIDATES ? opts.hint : undefined;
  // A word the statistics call common will be counted past the window by its floor, which makes the page
  // a walk: that walk starts beside the count instead of after it (each ~20-30 ms at 100k products).
  // Unused (and harmless) when the count turns out lower, or comes from the cache lower.
  const early =
    ranked && !hint && (await common())
      ? // A query builder runs at each `then`: awaited once here, so the page below does not run it again.
        planned(db, "walk", async (tx) => await rankedRowsQuery(tx, q, opts.ownStore))
      : undefined;
  early?.catch(() => {});
  // A text query is counted first: the count picks the plan of the page (and is needed anyway
  // unless the page tells). Without text, the page and the facets go side by side.
  const facetAgg = opts.facets ? (text ? await facetCounts() : undefined) : undefined;
  let known: number | null = facetAgg && !q.category ? facetAgg.n : null;
  if (text && known === null) known = await count();
  const mode: PlanMode = known !== null && known > WALK_FROM ? "walk" : "bitmap";
  const page = async (): Promise<RankedPage | Row[]> => {
    if (collected) return rankedPage(collected);
    if (hint) return rankFromHint(db, q, opts.ownStore, hint);
    if (ranked) return rankedPage(await (mode === "walk" && early ? early : planned(db, mode, (tx) => rankedRowsQuery(tx, q, opts.ownStore))));
    return text ? planned(db, mode, (tx) => productRowsQuery(tx, q, opts.ownStore)) : productRowsQuery(db, q, opts.ownStore);
  };
  const [first, facetLater] = await Promise.all([page(), opts.facets && !text ? facetCounts() : undefined]);
  const facetsOf = facetAgg ?? facetLater;
  let rows: Row[];
  let found: number | null = null;
  let candidates: Candidate[] | undefined;
  let candidateFacets: (() => Promise<FacetRow[]>) | undefined;
  if (Array.isArray(first)) rows = first;
  else {
    ({ rows, found, candidates, facets: candidateFacets } = first);
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
  const bounded = totalRelation === "gte" && (!opts.facets || !q.category);
  // What the next computation of this answer may rank instead of every match (list-cache.ts).
  // A bounded answer stays "at least" the window while `margin` more matches leave (the count is a lower bound).
  const ranking =
    ranked && candidates && found !== null
      ? { candidates, complete: found <= CANDIDATES + SPARE, bounded, margin: Math.max(0, total - RESULT_WINDOW - 1), pageFull: rows.length === limit }
      : undefined;
  if (!facetsOf) return { value: result, ranking };

  // Facets: exact within the window; past it counted over the newest CANDIDATES matches (the ranked
  // statement already did when it ranked the same matches).
  const exact = facetsOf.n <= RESULT_WINDOW;
  const counted = exact
    ? facetsOf.facets!
    : !q.category && candidateFacets
      ? await candidateFacets()
      : await planned(db, "walk", (tx) => facetQuery(tx, facetWhere, { newest: true }));
  // The FACETS_SHOWN largest categories, named from the category tree (a category gone since is left out).
  const largest = counted.slice(0, FACETS_SHOWN);
  const names = await categoryNames(
    db,
    largest.map((f) => f.id),
  );
  const facets = largest.flatMap((f) => {
    const n = names.get(f.id);
    return n ? [{ id: f.id, name: localizedName(n, q.locale), count: Number(f.n) }] : [];
  });
  return { value: { ...result, facets: { categories: facets }, facetsRelation: exact ? "eq" : "gte" }, ranking, facetMatches: facetsOf.n };
}
