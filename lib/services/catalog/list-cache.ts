// Product lists and searches cached per process, fresh within a second (contract 9.3), invalidated
// per change: the catalog feed (catalog-feed.ts) hands every committed change, with the product's
// searchable state before and after, to this cache, which marks exactly the answers the change can
// affect (they show the product, the product matches their query before or after, they show the
// changed store's name). A marked answer may still be served until the change's deadline (its poll
// window + WINDOW_MS), so a burst of writes costs one recomputation, started shortly before the
// deadline while the old answer is still served; past the deadline the next request recomputes.
// A store's own reads bypass the cache for a few seconds after it changed its catalog.
// Answers are kept as their UTF-8 JSON, cut where the view counters go (re-read at most once a
// second), in an LRU bounded by SEARCH_CACHE_MB on globalThis (Next loads modules twice).
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { shortDb, type Db } from "@/lib/db/client";
import { products, type CatalogState } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { facetOrder } from "./aggregate-cache";
import { AnchorIndex, eachTouched } from "./anchor-index";
import { changesSince, feedPosition, freshFeed, onCatalogChanges, storeChangedRecently, type CatalogChange } from "./catalog-feed";
import { matches, matchesExactly, scoreOf, unchangedFor, type ListMatcher } from "./matcher";
import { Kept, KEPT_BYTES } from "./kept-candidates";
import { RESULT_WINDOW } from "@/lib/schemas/products";
import { CANDIDATES, FACETS_SHOWN, type Candidate } from "./search-sql";

export type { ListMatcher } from "./matcher";

type Listed = { id: string; viewCount: number; seller: { id: string } };
type Page = { products: Listed[] };
export type Computed<P extends Page> = {
  value: P;
  /**
   * A relevance page's candidates (the newest matches it ranked, with what ranks them) and whether
   * they were every match. The next computation may rank only them and the products changed since
   * (see Hint). `bounded`: the answer depends on no other match (totals and facets are lower
   * bounds), so a product outside the candidates that matches before and after its change does not
   * affect it, nor one older than every candidate that starts to match, nor, while `margin` lasts
   * (how many matches past the window the total counted), one that stops matching.
   */
  ranking?: { candidates: Candidate[]; complete: boolean; bounded: boolean; margin: number; pageFull: boolean };
  /**
   * How many matches its category facets are taken from (the facets ignore a category filter: with one, more
   * than its total): exact within the window, a lower bound past it. A patch must not take it across the window,
   * where the facets change from counting every match to counting the newest ones.
   */
  facetMatches?: number;
};

/**
 * Every product that can be among a ranked answer's candidates after the changes since it was computed:
 * its candidates, kept with their scores, and the changed products that may match now (`touched`, changed
 * candidates included: read again). The kept candidates go SPARE (search-sql.ts) past the ranked ones, so
 * the hint holds while enough of them stay to fill the ranking when some may have left a set that had
 * older matches behind it (`departed`: one of those could take a place), and nothing but products and store
 * names changed; otherwise the answer is computed from every match.
 */
type Hint = { kept: Kept; complete: boolean; touched: Set<string>; departed: number; valid: boolean };
/** What a recomputation from a hint ranks: the unchanged candidates as they were, and the ids to read again. */
export type RankHint = { kept: Candidate[]; reread: string[] };
/** Past this many changed products a recomputation reads every match again. */
const HINT_TOUCHED_MAX = 200;

/** A place in a ranking: higher score first, then newer, then the higher id (search-sql.ts rankedRowsQuery). */
type RankKey = { score: number; created: number; id: string };
/** The first and last product a ranked page shows; `full`: it shows as many as asked (else it ends the ranking). */
type PageBounds = { first: RankKey; last: RankKey; full: boolean };
const outranks = (a: RankKey, b: RankKey) => a.score > b.score || (a.score === b.score && (a.created > b.created || (a.created === b.created && a.id > b.id)));

/** The page's bounds, when every product it shows is a ranked candidate (a page may continue past them, newest first). */
function boundsOf(kept: Kept, shown: string[], full: boolean): PageBounds | null {
  const key = (id: string | undefined): RankKey | null => {
    const i = id === undefined ? -1 : kept.place(id);
    return i < 0 || i >= CANDIDATES ? null : { score: kept.scores[i]!, created: kept.created[i]!, id: id! };
  };
  const first = key(shown[0]);
  const last = key(shown[shown.length - 1]);
  return first && last ? { first, last, full } : null;
}

/**
 * A ranked candidate the page does not show, still a match, in the same category: does its change leave the
 * page as it is? Yes when it stays a spare (not ranked), or stays on the same side of the page (before its
 * first product, or after its last on a full page), by its score before and after (scoreOf) and its place.
 */
function staysOffPage(e: Pick<Entry, "matcher" | "page" | "lineup">, place: number, c: CatalogChange): boolean {
  if (place >= (e.lineup?.boundary ?? CANDIDATES)) return true;
  if (!e.page || !c.productId) return false;
  const created = c.after!.created ?? c.before!.created;
  const [was, is] = [scoreOf(e.matcher.terms, c.before!), scoreOf(e.matcher.terms, c.after!)];
  if (created === undefined || was === null || is === null) return false;
  const { first, last, full } = e.page;
  const [kb, ka] = [
    { score: was, created, id: c.productId },
    { score: is, created, id: c.productId },
  ];
  return (outranks(kb, first) && outranks(ka, first)) || (full && outranks(last, kb) && outranks(last, ka));
}

/** The answer's JSON cut around each product's viewCount: segments.length === ids.length + 1. */
export type Entry = {
  matcher: ListMatcher;
  ids: string[];
  idSet: Set<string>;
  sellerIds: Set<string>;
  /** A relevance page's kept candidates (the newest matches, SPARE past the ranked ones), newest first. */
  candidates: Kept | null;
  /** Where its page starts and ends in the ranking, while it lies among the ranked candidates. */
  page: PageBounds | null;
  /** Its total and facets are lower bounds: they depend on no match outside the candidates (Computed.ranking). */
  bounded: boolean;
  /** The candidates were every match. */
  complete: boolean;
  /** A bounded answer: how many more matches outside the candidates may stop matching before its total can change. */
  margin: number;
  /** Computed.facetMatches, as patched since (null: not known). */
  facetMatches: number | null;
  counts: number[];
  countsAt: number;
  segments: Buffer[];
  /** Where the last segment's part after the products starts (cut). */
  tailAt: number;
  /**
   * That part as patched (patch), once a change was taken in place: written into the last segment when the
   * answer is next served, so the changes of one poll cost one JSON.stringify, and only for answers read.
   */
  tail: Tail | null;
  tailStale: boolean;
  bytes: number;
  /** Served until then; Infinity while no change affects it. */
  deadline: number;
  hint: Hint | null;
  /** Products taken in place that are not among the kept candidates (entering: ranked after the page, or spares). */
  added: Set<string>;
  /** Which kept candidates are ranked now, as the patches taken in place moved them (null: not a ranked page). */
  lineup: Lineup | null;
};

/**
 * The ranked candidates of a stored relevance answer as changes taken in place left them: the kept ones before
 * `boundary` (but those that stopped matching since, which are in the hint's touched set) and the products taken in
 * (Entry.added, created from `addedFrom` on); `ranked` of them in all. A candidate leaving the ranked places lets the
 * newest spare (the kept one at `boundary`) in; a product entering pushes the oldest ranked one (before `boundary`)
 * out to the spares, once the ranked places are full. `spareGap`: a product became a spare that the kept ones do not
 * hold, so the spares' order is no longer known.
 */
type Lineup = { boundary: number; ranked: number; addedFrom: number; spareGap: boolean };
/** The lineup of candidates as computed: the newest CANDIDATES ranked, the rest spares. */
export const lineupOf = (kept: Kept): Lineup => {
  const n = Math.min(CANDIDATES, kept.size);
  return { boundary: n, ranked: n, addedFrom: Infinity, spareGap: false };
};
/**
 * `anchors` and `shown` find the answers a product change can touch (anchor-index.ts): by the anchor of
 * their query's terms, and by the products their page shows.
 */
type Cache = {
  entries: Map<string, Entry>;
  bytes: number;
  computing: Map<string, Promise<Buffer>>;
  anchors: AnchorIndex<string>;
  shown: Map<string, Set<string>>;
};

/** View counters shown in cached answers are re-read at most this often. */
const COUNTS_MS = 1_000;
/** A marked answer is recomputed in the background once its deadline is this close. */
const REFRESH_AHEAD_MS = 250;

const KEY = Symbol.for("expo-trade.list-cache");
const cache = (): Cache =>
  ((globalThis as typeof globalThis & { [KEY]?: Cache })[KEY] ??= {
    entries: new Map(),
    bytes: 0,
    computing: new Map(),
    anchors: new AnchorIndex(),
    shown: new Map(),
  });
// A placeholder no stored text contains (random per process), where the counters are cut out.
const MARK_VALUE = `vc-${randomBytes(12).toString("hex")}`;
const MARK = JSON.stringify(MARK_VALUE);

/**
 * Since the reader last reset them (the bench's profiling hook, once a second): computations by what started
 * them (a request that found no fresh answer, a refresh ahead of a deadline, a writer's own read), and the
 * answers a change marked (gave a deadline; changes a computation may have seen are not counted again).
 */
export type ListCacheStats = Record<"request" | "background" | "bypass" | "marks", number>;
const STATS = Symbol.for("expo-trade.list-cache.stats");
function stats(): ListCacheStats {
  const g = globalThis as typeof globalThis & { [STATS]?: ListCacheStats };
  return (g[STATS] ??= { request: 0, background: 0, bypass: 0, marks: 0 });
}

const prepared = new WeakMap<Db, ReturnType<typeof prepare>>();
function prepare(db: Db) {
  return db
    .select({ id: products.id, viewCount: products.viewCount })
    .from(products)
    .where(sql`${products.id} = any(${sql.placeholder("ids")}::text[])`)
    .prepare("list_cache_counts");
}
function countsStatement(db: Db) {
  let s = prepared.get(db);
  if (!s) prepared.set(db, (s = prepare(db)));
  return s;
}

const scopes = new WeakMap<ListMatcher, ListMatcher>();
/**
 * The products an answer counts: its query's matches, except that category facets count every category's
 * (search.ts facetCounts ignores the category filter), so a product entering another category changes them.
 */
function answerScope(m: ListMatcher): ListMatcher {
  if (!m.facets || !m.categories) return m;
  let s = scopes.get(m);
  if (!s) scopes.set(m, (s = { ...m, categories: null }));
  return s;
}

/**
 * Can this change alter the answer? A match leaving a bounded answer within its margin spends the margin.
 * Where the text alone cannot tell whether the product matches ("lamp" inside "clamp"), the database's own
 * decision (matchesExactly: true, false or not sure) does.
 */
type Affected = Pick<Entry, "matcher" | "idSet" | "sellerIds" | "candidates" | "page" | "bounded" | "complete" | "margin" | "hint" | "added" | "lineup">;
export function affects(e: Affected, c: CatalogChange): boolean | Patch {
  switch (c.kind) {
    case "seller":
      return !!c.sellerId && e.sellerIds.has(c.sellerId);
    case "booth":
      // Publishing or unpublishing a booth changes which products a booth filter finds and whether
      // listed products of its store show the booth's id (contract 9.1).
      return e.matcher.exhibition || e.matcher.boothId !== undefined || (!!c.sellerId && e.sellerIds.has(c.sellerId));
    case "product": {
      if (c.productId && e.idSet.has(c.productId)) return true;
      const m = answerScope(e.matcher);
      const before = !!c.before && matches(m, c.before);
      const after = !!c.after && matches(m, c.after);
      if (!before && !after) return false;
      // A match that stays a match, with nothing the answer reads of it changed, moves nothing.
      if (before && after && unchangedFor(m, c.before!, c.after!, { category: m.facets, price: m.priceOrder })) return false;
      // A new product taken in place (entering) is not among the kept candidates, which tell where the others rank.
      if (c.productId && e.added.has(c.productId)) return true;
      const wasMatch = before && matchesExactly(m, c.before!);
      const isMatch = after && matchesExactly(m, c.after!);
      if (wasMatch === false && isMatch === false) return false;
      if (!e.candidates) return true;
      const place = c.productId === null ? -1 : e.candidates.place(c.productId);
      if (place >= 0) {
        // A kept candidate that stays a match in its category: the total and facets stay; the page may move.
        if (wasMatch === true && isMatch === true && (!m.facets || c.before!.category === c.after!.category) && staysOffPage(e, place, c)) return false;
        return (wasMatch === true && isMatch === false && leaving(e, c, place)) || true;
      }
      // Outside the kept candidates (the newest matches). Older than all of them, with older matches
      // beside it, it is not ranked (creation never changes); ties with the oldest go by id: counted newer.
      const created = (c.after ?? c.before)!.created;
      const older = created !== undefined && created < e.candidates.oldest;
      const entered = (c.before === null || wasMatch === false) && isMatch === true && inSet(e.matcher, c.after!) ? entering(e, c) : null;
      if (entered) return entered;
      if (!e.bounded) return countedMove(e, m, c, older && !e.complete, wasMatch, isMatch);
      // Bounded: it matters if it may enter the match set newer than the oldest candidate, or may leave it
      // when the total counted too few matches past the window to stay "at least" the window without it.
      if (!older && wasMatch !== true && isMatch !== false) return true;
      if (wasMatch !== false && isMatch !== true) return e.margin-- <= 0;
      return false;
    }
    default:
      return true;
  }
}

/** In the answer's own set (its category filter too), not only in the scope its facets count. */
const inSet = (m: ListMatcher, s: CatalogState) => !m.categories || m.categories.has(s.category);

/** A category's count moved by one in an answer's facets. */
type FacetMove = [category: string, by: number];
/**
 * What a change does to an answer whose page it cannot alter: its total moves by `total` (when exact), its
 * facets by `moves` when they count every match, by `newest` when they count the newest matches (null: not
 * known). `enters`: a product the answer's candidates do not hold, taken in (entering); `lineup`: the ranked
 * candidates as they are after it (Lineup).
 */
export type Patch = { total: number; moves: FacetMove[]; newest: FacetMove[] | null; enters?: string; lineup?: Lineup };

/** Newer in the database's order of matches: created later, then the higher id (search.ts newestFirst). */
const newer = (a: { created: number; id: string }, b: { created: number; id: string }) => a.created > b.created || (a.created === b.created && a.id > b.id);

/** The facet moves of a patch as the answer counts its facets: over every match (`moves`) or over the ranked ones (`newest`). */
function facetPatch(m: ListMatcher, total: number, moves: FacetMove[], newest: FacetMove[]): Patch {
  // The newest matches' facets count the ranked candidates only without a category filter (search.ts).
  return { total, moves: m.facets ? moves : [], newest: !m.facets ? [] : m.categories ? null : newest };
}

/**
 * A product in a relevance page's set that the kept candidates do not hold (new, or starting to match). With ranked
 * places to spare (every match kept) it is ranked, whatever its age. Otherwise, newer than the oldest ranked one it
 * is ranked and that one leaves for the spares; older than it but newer than the oldest kept one, it is a spare. When both rank
 * after a full page, the page stays as it is; the total and facets move by one each (the newest matches' facets by
 * the one leaving too). Needs the hint, which tells whether the one leaving changed since (its kept score would not
 * be its own) and reads the new one again next time; each one taken is tracked there, so past HINT_TOUCHED_MAX of
 * them the answer is computed again.
 */
function entering(e: Pick<Entry, "matcher" | "candidates" | "page" | "hint" | "lineup">, c: CatalogChange): Patch | null {
  const kept = e.candidates!;
  const after = c.after!;
  const line = e.lineup;
  if (!line || !e.page?.full || !e.hint?.valid || !c.productId || after.created === undefined || kept.size === 0) return null;
  const score = scoreOf(e.matcher.terms, after);
  if (score === null) return null;
  const key = { score, created: after.created, id: c.productId };
  const moves: FacetMove[] = [[after.category, 1]];
  const taken = (newest: FacetMove[], lineup: Lineup): Patch => ({ ...facetPatch(e.matcher, 1, moves, newest), enters: c.productId!, lineup });
  const ranked = { ...line, addedFrom: Math.min(line.addedFrom, key.created) };
  // Places to spare (every match was kept, and every one is ranked): it is ranked, and nothing leaves.
  if (line.ranked < CANDIDATES) return outranks(e.page.last, key) ? taken(moves, { ...ranked, ranked: line.ranked + 1 }) : null;
  // Older than every kept candidate, with older matches beside them: not for here (affects).
  if (!newer(key, kept.candidate(kept.size - 1))) return null;
  // The oldest ranked candidate: the kept one before the boundary, older than every product taken in.
  const oldest = line.boundary > 0 ? kept.candidate(line.boundary - 1) : null;
  if (!oldest || e.hint.touched.has(oldest.id) || oldest.created >= line.addedFrom) return null;
  // Older than it: a spare, and the spares no longer say in which order they come.
  if (!newer(key, oldest)) return taken([], { ...line, spareGap: true });
  if (!outranks(e.page.last, key) || !outranks(e.page.last, oldest)) return null;
  return taken([...moves, [oldest.category, -1]], { ...ranked, boundary: line.boundary - 1 });
}

/**
 * A kept candidate that stops matching (in every category), ranked after a full page or a spare: the page stays as
 * it is. Leaving the ranked places, the newest spare takes its place when there is one (it must rank after the page
 * too, and be as it was kept); with none, every match was kept, and one fewer is ranked. The total and facets move by
 * one each (the newest matches' facets by the spare coming in too); a bounded total spends its margin instead.
 */
function leaving(
  e: Pick<Entry, "matcher" | "candidates" | "page" | "hint" | "lineup" | "complete" | "bounded" | "margin">,
  c: CatalogChange,
  place: number,
): Patch | null {
  const kept = e.candidates!;
  const before = c.before!;
  const line = e.lineup;
  if (!line || !e.page?.full || !e.hint?.valid || !c.productId || before.created === undefined) return null;
  const newest: FacetMove[] = [];
  let next = line;
  if (place < line.boundary) {
    const score = scoreOf(e.matcher.terms, before);
    if (score === null || !outranks(e.page.last, { score, created: before.created, id: c.productId })) return null;
    newest.push([before.category, -1]);
    if (line.boundary < kept.size) {
      const spare = kept.candidate(line.boundary);
      if (line.spareGap || e.hint.touched.has(spare.id) || !outranks(e.page.last, spare)) return null;
      newest.push([spare.category, 1]);
      next = { ...line, boundary: line.boundary + 1 };
    } else if (e.complete) next = { ...line, ranked: line.ranked - 1 };
    else return null;
  }
  // An "at least" total stays true while the matches it counted past the window last.
  if (e.bounded && e.margin-- <= 0) return null;
  return { ...facetPatch(e.matcher, e.bounded ? 0 : -1, [[before.category, -1]], newest), lineup: next };
}

/**
 * A product outside the kept candidates of an answer counting every match (total "eq"): the page stays as
 * it is unless the product is ranked before or after (a member of the query's set newer than the oldest
 * candidate, or every match was kept); then its total and facets move by what its match did, which the
 * stored answer takes in place (patch) instead of being computed again. `beyond`: older than every kept
 * candidate, with older matches beside them. `wasMatch`/`isMatch`: in the answer's scope (every category).
 */
function countedMove(
  e: Pick<Entry, "matcher">,
  m: ListMatcher,
  c: CatalogChange,
  beyond: boolean,
  wasMatch: boolean | null,
  isMatch: boolean | null,
): boolean | Patch {
  const within = (scoped: boolean | null, s: CatalogState | null) => (scoped === true ? inSet(e.matcher, s!) : scoped);
  const [was, is] = [within(wasMatch, c.before), within(isMatch, c.after)];
  if (was === null || is === null || ((was || is) && !beyond)) return true;
  const moves: FacetMove[] = [];
  if (m.facets && !(wasMatch && isMatch && c.before!.category === c.after!.category)) {
    if (wasMatch) moves.push([c.before!.category, -1]);
    if (isMatch) moves.push([c.after!.category, 1]);
  }
  const total = Number(is) - Number(was);
  // Facets counted over the newest matches do not count a product beyond them.
  return total === 0 && moves.length === 0 ? false : { total, moves, newest: beyond ? [] : null };
}

type Tail = {
  total?: number;
  totalRelation?: string;
  facets?: { categories: { id: string; name: string; count: number }[] };
  facetsRelation?: string;
};

/** How many more matches the facets are taken from after a patch (its moves of the facets over every match). */
const facetGain = (p: Patch) => p.moves.reduce((n, [, by]) => n + by, 0);

/**
 * The answer's total and facets after a patch, or null where it cannot tell (the answer is then computed again).
 * `facetMatches`: how many matches the facets are taken from (Computed.facetMatches; null: not known).
 */
export function patchedTail(rest: Tail, p: Patch, facetMatches: number | null): Tail | null {
  // One match more leaves an "at least" total as true as it was.
  if (p.total && !(rest.totalRelation === "gte" && p.total > 0)) {
    if (rest.totalRelation !== "eq" || typeof rest.total !== "number") return null;
    const total = rest.total + p.total;
    if (total < 0 || total > RESULT_WINDOW) return null;
    rest = { ...rest, total };
  }
  if (!p.moves.length && !p.newest?.length) return rest;
  // Facets counted over every match, or over the newest ones.
  const moves = rest.facetsRelation === "eq" ? p.moves : p.newest;
  if (!rest.facets || !moves) return null;
  // Across the window the facets change from counting every match to counting the newest ones: computed again.
  const gain = facetGain(p);
  const across =
    rest.facetsRelation === "eq"
      ? gain > 0 && (facetMatches ?? Infinity) + gain > RESULT_WINDOW
      : gain < 0 && (facetMatches ?? -Infinity) + gain <= RESULT_WINDOW;
  if (across) return null;
  const list = rest.facets.categories.slice();
  for (const [id, by] of moves) {
    const i = list.findIndex((f) => f.id === id);
    // A category not shown: one with no match yet needs its name (computed again), one past the shown ones stays past them.
    if (i < 0) {
      if (by > 0 || list.length < FACETS_SHOWN) return null;
      continue;
    }
    // Lowered while every place is taken: a category not shown may now outrank it.
    if (by < 0 && list.length >= FACETS_SHOWN) return null;
    const count = list[i]!.count + by;
    if (count > 0) list[i] = { ...list[i]!, count };
    else list.splice(i, 1);
  }
  list.sort((a, b) => facetOrder(a.count, a.id, b.count, b.id));
  return { ...rest, facets: { categories: list } };
}

/** The JSON after the products: `}` or `,"page":...}`. */
const tailJson = (rest: object) => {
  const text = JSON.stringify(rest);
  return text === "{}" ? "}" : `,${text.slice(1)}`;
};

/** Applies a patch to a stored answer's total and facets (written out when served: tail); false when it cannot. */
function patch(e: Entry, p: Patch): boolean {
  if (!e.tail) {
    const text = e.segments[e.segments.length - 1]!.subarray(e.tailAt).toString("utf8");
    if (text === "}") return false;
    e.tail = JSON.parse(`{${text.slice(1)}`) as Tail;
  }
  const rest = patchedTail(e.tail, p, e.facetMatches);
  if (!rest) return false;
  if (e.facetMatches !== null) e.facetMatches += facetGain(p);
  e.tail = rest;
  e.tailStale = true;
  return true;
}

/** The stored answer's last segment with its patched total and facets. */
function writeTail(e: Entry) {
  if (!e.tailStale || !e.tail) return;
  const last = e.segments.length - 1;
  const segment = e.segments[last]!;
  const written = Buffer.from(tailJson(e.tail), "utf8");
  e.segments[last] = Buffer.concat([segment.subarray(0, e.tailAt), written]);
  e.tailStale = false;
}

/** Keeps an answer's hint true to a change that affects it. */
export function track(hint: Pick<Hint, "kept" | "complete" | "touched" | "departed" | "valid">, matcher: ListMatcher, c: CatalogChange) {
  if (!hint.valid || c.kind === "seller") return;
  if (c.kind !== "product" || !c.productId) {
    hint.valid = false;
    return;
  }
  if (hint.kept.has(c.productId)) {
    // A candidate that may no longer match: when older matches exist, the kept ones past the ranked must fill its place.
    if (!hint.complete && (!c.after || matchesExactly(matcher, c.after) !== true) && hint.kept.size - ++hint.departed < CANDIDATES) hint.valid = false;
  } else if (!c.after || !matches(matcher, c.after)) return;
  hint.touched.add(c.productId);
  if (hint.touched.size > HINT_TOUCHED_MAX) hint.valid = false;
}

/**
 * `replay`: a change the answer's computation may or may not have seen (fill): it cannot be patched in, since
 * the answer may hold it already.
 */
export function mark(e: Entry, ch: CatalogChange, replay = false) {
  // Already marked as early, and no hint to keep: nothing left to learn from this change.
  if (ch.deadline >= e.deadline && !e.hint?.valid) return;
  const move = affects(e, ch);
  const patched = typeof move === "object" && !replay && ch.deadline < e.deadline && patch(e, move);
  const affected = move === true || (move !== false && !patched);
  const entered = patched && move.enters !== undefined;
  if (entered) e.added.add(move.enters!);
  if (patched && move.lineup) e.lineup = move.lineup;
  // A kept candidate's change is tracked even when it moves nothing shown: the next computation from the
  // hint reads it again (its kept score is no longer its own); so is a new product taken in place.
  if (e.hint && (affected || entered || (ch.productId !== null && e.candidates?.has(ch.productId)))) track(e.hint, e.matcher, ch);
  if (!affected || ch.deadline >= e.deadline) return;
  // A change the computation may have seen already is not a mark of its own (the answer before was marked).
  if (e.deadline === Infinity && !replay) stats().marks++;
  e.deadline = ch.deadline;
}

function onChanges(changes: CatalogChange[]) {
  // Only answers whose query can match the product before or after, or whose page shows it: affects() is
  // false for every other one.
  const c = cache();
  eachTouched(changes, c.entries, c.anchors, mark, (ch) => (ch.productId ? c.shown.get(ch.productId) : undefined));
}

function store(c: Cache, key: string, e: Entry) {
  c.entries.set(key, e);
  c.bytes += e.bytes;
  c.anchors.add(e.matcher.terms, key);
  for (const id of e.ids) {
    let keys = c.shown.get(id);
    if (!keys) c.shown.set(id, (keys = new Set()));
    keys.add(key);
  }
}

/** The next computation of an entry: from its hint while that holds, else from every match. */
function recompute<P extends Page>(e: Entry | undefined, compute: (exact: boolean, hint?: RankHint) => Promise<Computed<P>>) {
  const h = e?.hint?.valid ? e.hint : null;
  if (!h) return () => compute(false);
  return async () => {
    const r = await compute(false, { kept: h.kept.without(h.touched), reread: [...h.touched] });
    // Ranked among a set that left older matches out, the new candidates are not every match either.
    if (r.ranking && !h.complete) r.ranking = { ...r.ranking, complete: false };
    return r;
  };
}

/**
 * The answer's JSON (products first) cut where each product's viewCount goes; `tailAt`: where, in the last
 * segment, the part after the products starts (its total and facets, which a patch rewrites).
 */
function cut(value: Page): { segments: Buffer[]; tailAt: number } | null {
  const { products: listed, ...rest } = value;
  const parts = `{"products":${JSON.stringify(listed.map((p) => ({ ...p, viewCount: MARK_VALUE })))}`.split(MARK);
  if (parts.length !== listed.length + 1) return null;
  const tailAt = Buffer.byteLength(parts[parts.length - 1]!, "utf8");
  parts[parts.length - 1] += tailJson(rest);
  return { segments: parts.map((p) => Buffer.from(p, "utf8")), tailAt };
}

function join(segments: Buffer[], counts: number[]): Buffer {
  const pieces: Buffer[] = [segments[0]!];
  counts.forEach((n, i) => pieces.push(Buffer.from(String(n)), segments[i + 1]!));
  return Buffer.concat(pieces);
}

/** How an answer was served (the `X-List-Cache` header): stored, computed, or computed for its writer. */
export type CacheState = "hit" | "miss" | "bypass";
export type ListAnswer = { body: Buffer; cache: CacheState };

type Spec = {
  /** Built only when an answer is computed (a hit needs none: it can cost a category-tree walk). */
  matcher: () => Promise<ListMatcher>;
  /** The reader's own store: its reads are exact at once after it writes. */
  writerStore?: string | null;
};

/**
 * `compute()`'s answer for `key` as UTF-8 JSON, from the cache while it is fresh. `key` must name
 * everything the answer depends on besides the catalog (query, locale, caller); `spec.matcher`
 * says which changed products can alter it.
 */
export async function cachedJson<P extends Page>(
  db: Db,
  key: string,
  spec: Spec,
  compute: (exact: boolean, hint?: RankHint) => Promise<Computed<P>>,
): Promise<ListAnswer> {
  const limitBytes = env().SEARCH_CACHE_MB * 1024 * 1024;
  if (limitBytes === 0) return { body: Buffer.from(JSON.stringify((await compute(true)).value), "utf8"), cache: "bypass" };
  onCatalogChanges("list-cache", onChanges);
  await freshFeed(db);
  const c = cache();
  // The writer's own read: computed from the database alone (no cached count either).
  if (spec.writerStore && (await storeChangedRecently(db, spec.writerStore)))
    return { body: await fill(c, key, spec, () => compute(true), limitBytes, "bypass"), cache: "bypass" };
  const entry = c.entries.get(key);
  const now = Date.now();
  const cached = recompute(entry, compute);
  if (!entry || now >= entry.deadline) return { body: await shared(c, key, () => fill(c, key, spec, cached, limitBytes, "request")), cache: "miss" };
  // Most recently used last.
  c.entries.delete(key);
  c.entries.set(key, entry);
  if (entry.deadline - now < REFRESH_AHEAD_MS) {
    shared(c, key, () => fill(c, key, spec, cached, limitBytes, "background")).catch((err: unknown) => console.error("list cache: refresh failed", err));
  }
  if (now - entry.countsAt >= COUNTS_MS && entry.ids.length) {
    // A hit's only statement: on the short statements' connections, not behind the misses (shortDb).
    const rows = await countsStatement(shortDb(db)).execute({ ids: entry.ids });
    const live = new Map(rows.map((r) => [r.id, r.viewCount]));
    entry.counts = entry.ids.map((id, i) => live.get(id) ?? entry.counts[i]!);
    entry.countsAt = now;
  }
  return { body: served(entry), cache: "hit" };
}

/** A stored answer as served: its patched total and facets written out, its view counters in place. */
export function served(e: Entry): Buffer {
  writeTail(e);
  return join(e.segments, e.counts);
}

/** One computation per key at a time; concurrent requests share it. */
function shared(c: Cache, key: string, run: () => Promise<Buffer>): Promise<Buffer> {
  let p = c.computing.get(key);
  if (!p) {
    p = run().finally(() => c.computing.delete(key));
    c.computing.set(key, p);
  }
  return p;
}

async function fill<P extends Page>(
  c: Cache,
  key: string,
  spec: Spec,
  compute: () => Promise<Computed<P>>,
  limitBytes: number,
  started: keyof Omit<ListCacheStats, "marks">,
): Promise<Buffer> {
  stats()[started]++;
  const position = feedPosition();
  const [computed, matcher] = await Promise.all([compute(), spec.matcher()]);
  const entry = entryOf(matcher, computed);
  if (!entry) return Buffer.from(JSON.stringify(computed.value), "utf8");
  // Changes processed while this ran may or may not be in it: treated as not.
  for (const ch of changesSince(position)) mark(entry, ch, true);
  if (entry.bytes <= limitBytes / 8) {
    forget(c, key);
    store(c, key, entry);
    for (const [k] of c.entries) {
      if (c.bytes <= limitBytes) break;
      forget(c, k);
    }
  }
  return join(entry.segments, entry.counts);
}

/** A computed answer as the cache keeps it; null when its JSON cannot be cut around the view counters. */
export function entryOf<P extends Page>(matcher: ListMatcher, { value, ranking, facetMatches }: Computed<P>): Entry | null {
  const answer = cut(value);
  if (!answer) return null;
  const { segments, tailAt } = answer;
  const ids = value.products.map((p) => p.id);
  const kept = ranking ? new Kept(ranking.candidates) : null;
  const counts = value.products.map((p) => p.viewCount);
  return {
    matcher,
    ids,
    idSet: new Set(ids),
    sellerIds: new Set(value.products.map((p) => p.seller.id)),
    candidates: kept,
    page: kept && ranking ? boundsOf(kept, ids, ranking.pageFull) : null,
    bounded: !!ranking?.bounded,
    complete: !!ranking?.complete,
    margin: ranking?.bounded ? ranking.margin : 0,
    facetMatches: facetMatches ?? null,
    counts,
    countsAt: Date.now(),
    segments,
    tailAt,
    tail: null,
    tailStale: false,
    bytes: segments.reduce((n, s) => n + s.length, 0) + ids.length * 64 + (kept?.size ?? 0) * KEPT_BYTES,
    deadline: Infinity,
    hint: ranking && kept ? { kept, complete: ranking.complete, touched: new Set(), departed: 0, valid: true } : null,
    added: new Set(),
    lineup: kept && ranking ? lineupOf(kept) : null,
  };
}

function forget(c: Cache, key: string) {
  const e = c.entries.get(key);
  if (!e) return;
  c.entries.delete(key);
  c.bytes -= e.bytes;
  c.anchors.delete(e.matcher.terms, key);
  for (const id of e.ids) {
    const keys = c.shown.get(id);
    if (keys?.delete(key) && !keys.size) c.shown.delete(id);
  }
}
