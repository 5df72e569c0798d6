// The statements behind product lists and multilingual search (contract 4, 9.3), identical on PGlite
// and PostgreSQL: trigram GIN on the normalized text for terms of 3+ characters, a GIN array of CJK
// 1-2 character n-grams for short CJK terms, whole words for short other terms. Every statement's
// cost is bounded by the page, not by the matches: relevance ranks the newest CANDIDATES matches,
// counts stop at RESULT_WINDOW + 1, and facets past that are counted over the newest CANDIDATES.
import { and, count, desc, eq, getTableColumns, gte, inArray, isNull, lte, sql, type SQL } from "drizzle-orm";
import { PLAN_SETTINGS, plannedDb, type Db, type SearchPlan } from "@/lib/db/client";
import { outer } from "@/lib/db/outer-column";
import { booths, catalogTermCounts, categories, products, sellerProfiles } from "@/lib/db/schema";
import { RESULT_WINDOW, type ProductListInput } from "@/lib/schemas/products";
import { isCjk, markedGrams, queryTerms } from "@/lib/search/normalize";
import { COUNT_MARGIN } from "./aggregate-cache";
import { categorySubtree } from "./categories";

/** Relevance ranks this many of the newest matches (contract 9.3: "at least the 1,000 best"). */
export const CANDIDATES = 1_000;
/**
 * The next newest matches kept beyond the candidates, scored but not ranked: a page recomputed from
 * kept candidates (list-cache.ts) survives this many of them leaving the match set.
 */
export const SPARE = 100;
/** An answer names this many of its largest categories (facets). */
export const FACETS_SHOWN = 50;

/** Counts stop here: past the window, with a margin (aggregate-cache.ts). */
export const COUNT_CAP = RESULT_WINDOW + 1 + COUNT_MARGIN;
/** The statement's snapshot ("xmin:xmax:xip,..."): which committed catalog changes its counts hold. */
const SNAPSHOT = sql<string>`pg_current_snapshot()::text`;

const escapeLike = (term: string) => term.replace(/[\\%_]/g, (c) => `\\${c}`);

function likePattern(term: string): string {
  return `%${escapeLike(term)}%`;
}

/** The term as a whole word of the title or keywords (the token index answers it exactly). */
const hasToken = (term: string) => sql`${products.tokens} @> array[${term}]::text[]`;

function wordPrefixPattern(term: string): string {
  return `\\m${term.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&")}`;
}

/**
 * The term at the start of a word of the search text, as PostgreSQL's `\m` decides it, for a word with
 * combining marks, whose candidates come from the n-gram index with no text recheck. The regex widens
 * each row's whole text to wide characters first, costly on these 3-byte scripts (a fifth of a
 * collecting statement for a Hindi word with 10k matches); most matches start the text or follow a space,
 * which two LIKEs see byte by byte, so the regex runs only on the other rows. Exact: a term starting with
 * a letter (a word character to `\m`) at the start or after a space starts a word there. A CASE, not an
 * OR: the planner would turn an OR of LIKEs into one trigram index scan each. (For Latin terms the regex
 * is also the trigram index's condition, and these LIKEs measured no faster.)
 */
function markedWordStart(term: string): SQL {
  const regex = sql`${products.searchText} ~ ${wordPrefixPattern(term)}`;
  if (!/^[\p{L}\p{Nd}]/u.test(term)) return regex;
  const t = escapeLike(term);
  return sql`case when ${products.searchText} like ${`${t}%`} or ${products.searchText} like ${`% ${t}%`} then true else ${regex} end`;
}

/**
 * How one normalized term matches, chosen so an index can answer it. CJK is matched as a substring
 * (no spaces between words); other scripts at the start of a word, so "led" finds "LED bulb" but
 * not "peeled shrimp". Both forms are answered by the trigram index.
 */
function termCondition(term: string): SQL {
  const chars = [...term].length;
  const pairs = markedGrams(term);
  // A word with combining marks: its character pairs find the candidates, the word start decides.
  if (chars >= 3 && pairs.length)
    return sql`(${products.cjkGrams} @> ${sql`array[${sql.join(
      pairs.map((g) => sql`${g}`),
      sql`, `,
    )}]::text[]`} and ${markedWordStart(term)})`;
  if (chars >= 3) return isCjk(term) ? sql`${products.searchText} like ${likePattern(term)}` : sql`${products.searchText} ~ ${wordPrefixPattern(term)}`;
  if (isCjk(term)) return sql`${products.cjkGrams} @> array[${term}]::text[]`;
  return hasToken(term);
}

/**
 * A term matched at the start of a word by a pattern, each candidate row's text rechecked (3+
 * characters, not CJK): what the whole-word floor (wordFloorQuery) spares on a common word.
 */
const isWordStartTerm = (term: string) => [...term].length >= 3 && !isCjk(term);

/**
 * The term as a whole word of the title or keywords: the token index answers it exactly, with no
 * recheck of the row's text, and every such product also matches termCondition (each token is a
 * word of the search text, and starts a word there), so it counts a subset of the matches.
 */
function wholeWordCondition(term: string): SQL {
  return isWordStartTerm(term) ? hasToken(term) : termCondition(term);
}

function termScore(term: string): SQL {
  return sql`(case when ${products.keywordsNorm} @> array[${term}]::text[] then 4 else 0 end
    + case when ${products.titleNorm} like ${likePattern(term)} then 2 else 0 end
    + case when ${hasToken(term)} then 1 else 0 end)`;
}

export const searchText = (q: ProductListInput) => q.q ?? q.keyword;
export const searchTerms = (q: ProductListInput) => {
  const text = searchText(q);
  return text ? queryTerms(text) : [];
};

/** `wholeWords`: each word-start term as a whole word instead (wordFloorQuery). */
export function filters(q: ProductListInput, opts: { withCategory: boolean; ownStore?: string | null; wholeWords?: boolean }): SQL[] {
  // A store listing its own products (sellerId = its own) also sees the hidden ones.
  const own = !!opts.ownStore && q.sellerId === opts.ownStore;
  // Literal predicates (not bound parameters), so a generic plan still matches partial indexes.
  const where: SQL[] = [isNull(products.deletedAt), ...(own ? [] : [sql`not ${products.isHidden}`])];
  for (const term of searchTerms(q)) where.push(opts.wholeWords ? wholeWordCondition(term) : termCondition(term));
  if (opts.withCategory && q.category) where.push(sql`${products.categoryId} = any(array(${categorySubtree(q.category)}))`);
  if (q.minPrice !== undefined) where.push(gte(products.price, q.minPrice.toFixed(2)));
  if (q.maxPrice !== undefined) where.push(lte(products.price, q.maxPrice.toFixed(2)));
  if (q.currency) where.push(eq(products.currency, q.currency));
  if (q.maxMoq !== undefined) where.push(lte(products.moq, q.maxMoq));
  if (q.acceptsOEM !== undefined) where.push(eq(products.acceptsOEM, q.acceptsOEM));
  if (q.sellerId) where.push(eq(products.sellerId, q.sellerId));
  if (q.boothId) {
    where.push(eq(products.boothId, q.boothId));
    // An unpublished booth has no products for others (its own store lists them, sellerId = its own).
    if (!own) where.push(sql`exists (select 1 from ${booths} where ${booths.id} = ${q.boothId} and ${booths.isPublished})`);
  }
  if (q.exhibitionId) {
    where.push(inArray(products.boothId, sql`(select ${booths.id} from ${booths} where ${booths.exhibitionId} = ${q.exhibitionId} and ${booths.isPublished})`));
  }
  return where;
}

/** Ranked by relevance: a text query sorted by relevance whose page starts among the candidates. */
export function isRanked(q: ProductListInput): boolean {
  return (q.sort === "relevance" || q.sort === undefined) && searchTerms(q).length > 0 && (q.page - 1) * q.limit < CANDIDATES;
}

/** Index order: relevance past the candidates continues newest first, as does a list without text. */
function ordering(q: ProductListInput): SQL[] {
  switch (q.sort) {
    case "price_asc":
      return [sql`${products.price} asc`, desc(products.createdAt), desc(products.id)];
    case "price_desc":
      return [sql`${products.price} desc`, desc(products.createdAt), desc(products.id)];
    default:
      return [desc(products.createdAt), desc(products.id)];
  }
}

// The columns an answer shows; the search columns are large (every keyword, normalized twice)
// and only the database reads them.
const { searchText: _t, titleNorm: _n, cjkGrams: _g, tokens: _w, keywordsNorm: _k, searchVersion: _v, ...shownColumns } = getTableColumns(products);
/** A product's columns without its search columns: what every answer about one product reads too. */
export const shownProductColumns = shownColumns;
// Whether the product's booth is published: only then do others see its id (contract 9.1).
const boothPublished = sql<boolean>`coalesce((select ${booths.isPublished} from ${booths} where ${booths.id} = ${outer(products.boothId)}), false)`;
const shown = {
  p: shownColumns,
  sellerName: sellerProfiles.companyName,
  sellerCountry: sellerProfiles.country,
  categoryNames: categories.names,
  boothPublished,
};

/** Never past the result window (contract 9.3). */
export const pageLimit = (q: ProductListInput) => Math.min(q.limit, RESULT_WINDOW - (q.page - 1) * q.limit);

/** A page in index order (exported so tests can EXPLAIN exactly what runs). */
export function productRowsQuery(db: Db, q: ProductListInput, ownStore?: string | null, window?: { offset: number; limit: number }) {
  return db
    .select(shown)
    .from(products)
    .innerJoin(sellerProfiles, eq(sellerProfiles.id, products.sellerId))
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .where(and(...filters(q, { withCategory: true, ownStore })))
    .orderBy(...ordering(q))
    .limit(window?.limit ?? pageLimit(q))
    .offset(window?.offset ?? (q.page - 1) * q.limit);
}

/** A ranked candidate as the list cache keeps it: what ranks it again without reading its row. */
export type Candidate = { id: string; score: number; created: number; category: string };
/** Microseconds since 1970: timestamptz's own precision, exact in a double until the year 2255. */
const micros = (c: SQL | typeof products.createdAt) => sql<number>`(extract(epoch from ${c}) * 1000000)::bigint::float8`;
/** `id = any(...)` over a list of ids passed as one JSON text (the same on both engines, any length). */
const idAmong = (ids: string[]) => sql`${products.id} = any(array(select json_array_elements_text(${JSON.stringify(ids)}::json)))`;
const scoreOf = (q: ProductListInput) =>
  searchTerms(q)
    .map(termScore)
    .reduce((a, b) => sql`${a} + ${b}`);

/**
 * A page of the relevance ranking: the newest CANDIDATES + SPARE + 1 matches (one more tells whether
 * there are more), the first CANDIDATES of them ranked by score, newest first within a score. Each
 * row also carries the number of matches found, and the first row the candidates and the SPARE after
 * them (id, score, creation, category: the list cache ranks them again from these) and the candidates'
 * category counts. Positions past the candidates continue newest first (productRowsQuery).
 *
 * `collect`: the matches are collected whole, up to COUNT_CAP, as the count and the facets collect
 * them (bitmap plan mode), so one pass answers all three: `found` is then their number and the
 * category counts are over all of them (exact when `found` stays within the window, and the query
 * has no category filter, which facets ignore). The score, which reads the large keyword columns,
 * is then computed for the kept candidates only.
 */
export function rankedRowsQuery(db: Db, q: ProductListInput, ownStore?: string | null, opts: { collect?: boolean } = {}) {
  const score = scoreOf(q);
  const matching = db
    .select({
      id: sql<string>`${products.id}`.as("cid"),
      categoryId: sql<string>`${products.categoryId}`.as("ccat"),
      createdAt: sql<Date>`${products.createdAt}`.as("created"),
      // Collecting: where the row is, to score the kept ones by it later (the statement's snapshot still
      // sees that version, however the row changes meanwhile).
      ...(opts.collect ? { tid: sql<string>`${products}.ctid`.as("tid") } : { score: sql<number>`${score}`.as("score") }),
    })
    .from(products)
    .where(and(...filters(q, { withCategory: true, ownStore })));
  const found = db
    .$with("found")
    .as(opts.collect ? matching.limit(COUNT_CAP) : matching.orderBy(desc(products.createdAt), desc(products.id)).limit(CANDIDATES + SPARE + 1));
  // The newest CANDIDATES + SPARE of them (`pos`: their place, newest first), then their scores: already
  // at hand, or (collecting) read by primary key for these only, and not at all past the window (the
  // page is then ranked from an index walk).
  const newest = db.$with("newest").as(
    db
      .select({
        id: found.id,
        categoryId: found.categoryId,
        createdAt: found.createdAt,
        ...(opts.collect ? { tid: sql<string>`"found"."tid"`.as("tid") } : { score: sql<number>`"found"."score"`.as("score") }),
        pos: sql<number>`row_number() over (order by ${found.createdAt} desc, ${found.id} desc)`.as("pos"),
      })
      .from(found)
      .orderBy(desc(found.createdAt), desc(found.id))
      .limit(CANDIDATES + SPARE),
  );
  const top = db.$with("top").as(
    db
      .select({
        id: newest.id,
        categoryId: newest.categoryId,
        createdAt: newest.createdAt,
        pos: newest.pos,
        score: (opts.collect
          ? sql<number>`case when (select count(*) from found) <= ${RESULT_WINDOW} then (select ${score} from ${products} where ${products}.ctid = "newest"."tid") end`
          : sql<number>`"newest"."score"`
        ).as("score"),
      })
      .from(newest),
  );
  // Facets: of every match when collecting, else of the candidates.
  const counted = opts.collect ? sql`found` : sql`top where pos <= ${CANDIDATES}`;
  // The page is cut from the ranking of the candidates before anything is joined to it.
  const offset = (q.page - 1) * q.limit;
  const page = db.$with("page").as(
    db
      .select({ id: top.id, rank: sql<number>`row_number() over (order by ${top.score} desc, ${top.createdAt} desc, ${top.id} desc)`.as("rank") })
      .from(top)
      .where(sql`${top.pos} <= ${CANDIDATES}`)
      .orderBy(sql`2`)
      .limit(Math.max(0, Math.min(pageLimit(q), CANDIDATES - offset)))
      .offset(offset),
  );
  return db
    .with(found, newest, top, page)
    .select({
      ...shown,
      found: sql<number>`(select count(*) from found)::int`,
      snapshot: SNAPSHOT,
      // [id, score (null past the window when collecting), creation in microseconds, category], newest first.
      candidates: sql<[string, number | null, number, string][] | null>`case when ${page.rank} = ${offset + 1} then (
        select coalesce(json_agg(json_build_array(cid, score, ${micros(sql`created`)}, ccat) order by created desc, cid desc), '[]'::json) from top) end`,
      // The category counts of the candidates (or, collecting, of every match): a search's facets.
      // (Their names come from the catalog feed's category tree: categoryNames.)
      facets: sql<FacetRow[] | null>`case when ${page.rank} = ${offset + 1} then (
        select coalesce(json_agg(json_build_object('id', f.cat, 'n', f.n) order by f.n desc, f.cat), '[]'::json)
        from (select ccat as cat, count(*)::int as n from ${counted} group by ccat) f) end`,
    })
    .from(page)
    .innerJoin(products, eq(products.id, page.id))
    .innerJoin(sellerProfiles, eq(sellerProfiles.id, products.sellerId))
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .orderBy(page.rank);
}

/**
 * The ranking state of those of `ids` that match `q` now, read by primary key: the list cache ranks a
 * page again from its kept candidates and these (the products changed since), without the other rows.
 */
export function candidateStateQuery(db: Db, q: ProductListInput, ownStore: string | null | undefined, ids: string[]) {
  return db
    .select({ id: products.id, score: sql<number>`${scoreOf(q)}`, created: micros(products.createdAt), category: products.categoryId })
    .from(products)
    .where(and(...filters(q, { withCategory: true, ownStore }), idAmong(ids)));
}

/** These products as a page shows them, if they still match `q` (in no particular order). */
export function shownRowsQuery(db: Db, q: ProductListInput, ownStore: string | null | undefined, ids: string[]) {
  return db
    .select(shown)
    .from(products)
    .innerJoin(sellerProfiles, eq(sellerProfiles.id, products.sellerId))
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .where(and(...filters(q, { withCategory: true, ownStore }), idAmong(ids)));
}

/** A category's count among the matches (its names: catalog-feed.ts categoryNames). */
export type FacetRow = { id: string; n: number };

/** How many products match, counted to COUNT_CAP (more than RESULT_WINDOW means "at least RESULT_WINDOW"). */
export function cappedCountQuery(db: Db, where: SQL[]) {
  const matched = db
    .select({ one: sql`1` })
    .from(products)
    .where(and(...where))
    .limit(COUNT_CAP)
    .as("matched");
  // The statement's snapshot: which catalog changes the count already holds (aggregate-cache.ts).
  return db.select({ n: count(), snapshot: SNAPSHOT }).from(matched);
}

/** A term as the floor asks it of an array index that answers it exactly (its statistics: word-stats.ts). */
export type FloorTerm = { column: "tokens" | "cjk_grams"; value: string };

/** The part of a query that decides its matches (not its page, order or language). */
export function matchPart(q: ProductListInput) {
  const { page: _p, limit: _l, sort: _s, locale: _o, ...rest } = q;
  return rest;
}

/** A filter besides the text (a category, price, store, booth...): any other part of the query deciding its matches. */
const narrowed = (q: ProductListInput) => Object.entries(matchPart(q)).some(([k, v]) => k !== "q" && k !== "keyword" && v !== undefined && v !== "");

/**
 * The terms a floor of `q` asks of the token and n-gram indexes (wordFloorQuery): none when the floor
 * would spare nothing. A word-start term spares the recheck of each row's text; a 1-2 character CJK
 * term, matched on its n-grams exactly already, spares the collecting statement's sorting and
 * grouping of 11,001 matches (its floor is its plain capped count). A longer CJK term, matched as a
 * substring, is asked as it is and left out here.
 */
export function floorTerms(q: ProductListInput): FloorTerm[] {
  // The statistics tell how common a word is, not how many of its products pass a category, price or store
  // filter too (a category is a few hundred products): with one, a floor mostly fell short after reading
  // every product with the word (luz + a price range at 100k: 30-50 ms, then the same collecting statement).
  if (narrowed(q)) return [];
  const terms = searchTerms(q);
  const shortCjk = (t: string) => isCjk(t) && [...t].length <= 2;
  if (!terms.some((t) => isWordStartTerm(t) || shortCjk(t))) return [];
  return terms.flatMap((t): FloorTerm[] => (shortCjk(t) ? [{ column: "cjk_grams", value: t }] : isCjk(t) ? [] : [{ column: "tokens", value: t }]));
}

/**
 * How many products hold every word-start term of `q` as a whole word (and match the rest of it),
 * counted to COUNT_CAP: a floor under the number of matches. A common word ("lamp" in 83% of the
 * bench's catalog) reaches COUNT_CAP from the token index alone, which makes the total "at least
 * 10,000" without rechecking 11,001 rows' text against the word-start pattern.
 */
export function wordFloorQuery(db: Db, q: ProductListInput, ownStore?: string | null) {
  return cappedCountQuery(db, filters(q, { withCategory: true, ownStore, wholeWords: true }));
}

/**
 * How many listed products hold `term` (catalog_term_counts, kept by triggers: migration 0031), to
 * COUNT_CAP: the floor of a one-term query, whose whole-word matches are exactly those products. One
 * probe of the counts' primary key, where wordFloorQuery reads 11,001 index entries and their rows.
 */
export function termFloorQuery(db: Db, term: FloorTerm) {
  return db
    .select({ n: sql<number>`least(coalesce(sum(${catalogTermCounts.n}), 0), ${COUNT_CAP})::int`, snapshot: SNAPSHOT })
    .from(catalogTermCounts)
    .where(and(eq(catalogTermCounts.source, term.column), eq(catalogTermCounts.term, term.value)));
}

/**
 * The floor `q` gets (when its words are common, word-stats.ts): a one-term query the triggers' count
 * of its products, several terms those holding all of them, counted on the index.
 */
export function floorQuery(db: Db, q: ProductListInput, ownStore?: string | null) {
  const terms = floorTerms(q);
  return terms.length === 1 ? termFloorQuery(db, terms[0]!) : wordFloorQuery(db, q, ownStore);
}

/** The floor of `q` run as the app runs it: a count of the index under the bitmap plan (PlanMode), the counts' probe as it is. */
export function runFloor(db: Db, q: ProductListInput, ownStore?: string | null) {
  return floorTerms(q).length === 1 ? floorQuery(db, q, ownStore) : planned(db, "bitmap", (tx) => floorQuery(tx, q, ownStore));
}

/**
 * Category counts over the matches, and their number, both over at most COUNT_CAP
 * matches: exact when the number stays within the window. `newest` counts the newest CANDIDATES
 * instead (the bounded set of contract 9.3 for a query matching more).
 */
export function facetQuery(db: Db, where: SQL[], opts: { newest?: boolean } = {}) {
  const base = db
    .select({ categoryId: sql<string>`${products.categoryId}`.as("fcat") })
    .from(products)
    .where(and(...where));
  const matched = (opts.newest ? base.orderBy(desc(products.createdAt), desc(products.id)).limit(CANDIDATES) : base.limit(COUNT_CAP)).as("matched");
  const counted = db
    .select({ id: matched.categoryId, n: sql<number>`count(*)::int`.as("n") })
    .from(matched)
    .groupBy(matched.categoryId)
    .as("counted");
  return db
    .select({ id: counted.id, n: counted.n, total: sql<number>`(sum(${counted.n}) over ())::int`, snapshot: SNAPSHOT })
    .from(counted)
    .orderBy(desc(counted.n), counted.id);
}

/** Every statement a list or search may run (exported so tests and the bench can EXPLAIN or replay them). */
export function productQueries(db: Db, q: ProductListInput, ownStore?: string | null) {
  return {
    rows: isRanked(q) ? rankedRowsQuery(db, q, ownStore) : productRowsQuery(db, q, ownStore),
    // A first ranked page from every match, with their count and facets (a text query only).
    collected: isRanked(q) ? rankedRowsQuery(db, q, ownStore, { collect: true }) : productRowsQuery(db, q, ownStore),
    newestRows: productRowsQuery(db, q, ownStore),
    count: cappedCountQuery(db, filters(q, { withCategory: true, ownStore })),
    floor: floorQuery(db, q, ownStore),
    // The floor of a query of several words (a one-word query's floor is `floor`).
    wordFloor: wordFloorQuery(db, q, ownStore),
    facets: facetQuery(db, filters(q, { withCategory: false })),
    newestFacets: facetQuery(db, filters(q, { withCategory: false }), { newest: true }),
  };
}

/**
 * How PostgreSQL should find the matches of a text query. Its estimates for pattern conditions on
 * the search text are blind (a word matching 0.1% of the catalog is estimated like one matching
 * 80%), and under a LIMIT a wrong guess is ruinous either way: walking an index in order through
 * the whole table for a rare word, or collecting every match of a common one to sort them. The
 * number of matches, counted first (and cached), decides instead: "bitmap" collects the matches
 * from the keyword indexes (few of them), "walk" follows the order's index and stops at the page
 * (many of them, so the first ones come soon).
 */
export type PlanMode = SearchPlan;
/** Past this many matches a walk in index order meets enough of them soon enough. */
export const WALK_FROM = RESULT_WINDOW;

/**
 * `run` with `mode`'s planner settings: on PostgreSQL on connections that start with them (one round
 * trip a statement: a transaction setting them took four, each a turn of a busy event loop, holding
 * a main-pool connection throughout), elsewhere in a transaction that sets them first.
 */
export function planned<T>(db: Db, mode: PlanMode, run: (tx: Db) => Promise<T>): Promise<T> {
  const pool = plannedDb(db, mode);
  if (pool) return run(pool);
  return db.transaction(async (tx) => {
    await tx.execute(SET_PLAN[mode]);
    return run(tx);
  });
}

/** Each plan's settings for the rest of a transaction (where no connection starts with them). */
const SET_PLAN = Object.fromEntries(
  Object.entries(PLAN_SETTINGS).map(([mode, settings]) => {
    const each = Object.entries(settings).map(([name, value]) => sql`set_config(${name}, ${value}, true)`);
    return [mode, sql`select ${sql.join(each, sql`, `)}`];
  }),
) as Record<PlanMode, SQL>;
