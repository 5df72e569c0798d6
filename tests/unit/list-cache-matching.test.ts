import { describe, expect, it } from "vitest";
import type { CatalogState } from "@/lib/db/schema";
import type { CatalogChange } from "@/lib/services/catalog/catalog-feed";
import { adjusted, lowered, seenBy } from "@/lib/services/catalog/aggregate-cache";
import { Kept } from "@/lib/services/catalog/kept-candidates";
import { affects, lineupOf, patchedTail, track } from "@/lib/services/catalog/list-cache";
import { matchesExactly, type ListMatcher } from "@/lib/services/catalog/matcher";
import { CANDIDATES } from "@/lib/services/catalog/search-sql";

// Which catalog changes mark a cached list (lib/services/catalog/list-cache.ts): everything that can
// alter it, and as little else as possible.
const state = (over: Partial<CatalogState> = {}): CatalogState => ({
  live: true,
  category: "cat-a",
  price: "10.00",
  currency: "USD",
  moq: 1,
  oem: false,
  seller: "store-1",
  booth: null,
  text: "desk lamp • lampe • led",
  ...over,
});
const matcher = (over: Partial<ListMatcher> = {}): ListMatcher => ({
  terms: ["lamp"],
  categories: null,
  exhibition: false,
  facets: false,
  priceOrder: false,
  ...over,
});
const change = (before: CatalogState | null, after: CatalogState | null, productId = "p-9"): CatalogChange => ({
  seq: 1,
  kind: "product",
  productId,
  sellerId: "store-1",
  before,
  after,
  deadline: 0,
  n: 1,
});
/** Kept candidates, newest first (place i: the i-th), as the list cache keeps them; the last one created at `oldest`. */
const kept = (ids: string[], oldest = 1_000_000) => new Kept(ids.map((id, i) => ({ id, score: 0, created: oldest + ids.length - 1 - i, category: "cat-a" })));
/** Ids at the given places, the others filled with products of no interest. */
const placed = (places: Record<string, number>) => {
  const ids = Array.from({ length: Math.max(...Object.values(places)) + 1 }, (_, i) => `filler-${i}`);
  for (const [id, i] of Object.entries(places)) ids[i] = id;
  return ids;
};
type Bounds = { first: { score: number; created: number; id: string }; last: { score: number; created: number; id: string }; full: boolean };
/** An answer showing `shown`; with `candidates` (newest first, or by place), a relevance page (bounded unless told otherwise). */
const entry = (
  m: ListMatcher,
  shown: string[] = ["p-1"],
  candidates: string[] | Record<string, number> | null = null,
  ranking: { oldest?: number; margin?: number; bounded?: boolean; complete?: boolean; page?: Bounds } = {},
) => {
  const set = candidates ? kept(Array.isArray(candidates) ? candidates : placed(candidates), ranking.oldest) : null;
  const complete = ranking.complete ?? false;
  return {
    matcher: m,
    idSet: new Set(shown),
    sellerIds: new Set(["store-1"]),
    candidates: set,
    page: ranking.page ?? null,
    bounded: ranking.bounded ?? candidates !== null,
    complete,
    margin: ranking.margin ?? 0,
    hint: set ? { kept: set, complete, touched: new Set<string>(), departed: 0, valid: true } : null,
    added: new Set<string>(),
    lineup: set ? lineupOf(set) : null,
  };
};

describe("list cache: which changes affect an answer", () => {
  it("a shown product, whatever changed", () => {
    expect(affects(entry(matcher()), change(state(), state({ text: "bottle" }), "p-1"))).toBe(true);
  });

  it("a new match, a match leaving, a hidden match; not a product that never matches", () => {
    expect(affects(entry(matcher()), change(null, state()))).toBe(true);
    expect(affects(entry(matcher()), change(state(), state({ text: "bottle" })))).toBe(true);
    expect(affects(entry(matcher()), change(state(), state({ live: false })))).toBe(true);
    expect(affects(entry(matcher()), change(state({ text: "bottle" }), state({ text: "cup" })))).toBe(false);
    expect(affects(entry(matcher()), change(null, state({ text: "bottle" })))).toBe(false);
  });

  it("a match whose change the answer does not read: unaffected; one it reads: affected", () => {
    // Only the price changed: neither the match, nor the order (relevance), nor the facets.
    expect(affects(entry(matcher({ facets: true })), change(state(), state({ price: "12.00" })))).toBe(false);
    // The same change where price orders the list or filters it.
    expect(affects(entry(matcher({ priceOrder: true })), change(state(), state({ price: "12.00" })))).toBe(true);
    expect(affects(entry(matcher({ maxPrice: 100 })), change(state(), state({ price: "12.00" })))).toBe(true);
    // A category change moves facet counts.
    expect(affects(entry(matcher({ facets: true })), change(state(), state({ category: "cat-b" })))).toBe(true);
    expect(affects(entry(matcher()), change(state(), state({ category: "cat-b" })))).toBe(false);
    // Text that still contains the term may still match differently (word starts): affected.
    expect(affects(entry(matcher()), change(state(), state({ text: "desk clamp" })))).toBe(true);
  });

  it("filters are compared exactly: price range, currency, store, category subtree", () => {
    expect(affects(entry(matcher({ minPrice: 50 })), change(null, state({ price: "10.00" })))).toBe(false);
    expect(affects(entry(matcher({ minPrice: 5 })), change(null, state({ price: "10.00" })))).toBe(true);
    expect(affects(entry(matcher({ currency: "EUR" })), change(null, state()))).toBe(false);
    expect(affects(entry(matcher({ sellerId: "store-2" })), change(null, state()))).toBe(false);
    expect(affects(entry(matcher({ categories: new Set(["cat-b"]) })), change(null, state()))).toBe(false);
    expect(affects(entry(matcher({ categories: new Set(["cat-a", "cat-b"]) })), change(null, state()))).toBe(true);
  });

  it("an answer with category facets counts every category: products outside its category filter affect it too", () => {
    const filtered = matcher({ categories: new Set(["cat-b"]), facets: true });
    expect(affects(entry(filtered), change(null, state()))).toBe(true);
    expect(affects(entry(filtered), change(state(), state({ text: "cup" })))).toBe(true);
    expect(affects(entry(filtered), change(state(), state({ category: "cat-c" })))).toBe(true);
    // A match in another category whose category and match stay: no facet moves.
    expect(affects(entry(filtered), change(state(), state({ price: "12.00" })))).toBe(false);
    expect(affects(entry(filtered), change(null, state({ text: "cup" })))).toBe(false);
  });

  it("a bounded ranking ignores matches outside its candidates that stay matches", () => {
    const e = entry(matcher(), ["p-1"], ["p-1", "p-2"]);
    expect(affects(e, change(state(), state({ text: "lamp shade" }), "p-7"))).toBe(false);
    expect(affects(e, change(state(), state({ text: "lamp shade" }), "p-2"))).toBe(true);
    expect(affects(e, change(null, state(), "p-8"))).toBe(true);
    expect(affects(e, change(state(), state({ live: false }), "p-7"))).toBe(true);
  });

  it("a bounded ranking ignores a product older than every candidate that starts to match", () => {
    const e = entry(matcher(), ["p-1"], ["p-1", "p-2"], { oldest: 5_000 });
    const starts = (created?: number) => affects(e, change(state({ text: "cup" }), state({ created }), "p-7"));
    expect(starts(4_999)).toBe(false);
    // As old as the oldest candidate (ties go by id), newer, or of unknown age (a change row from before migration 0020).
    expect(starts(5_000)).toBe(true);
    expect(starts(6_000)).toBe(true);
    expect(starts(undefined)).toBe(true);
    // Restored or created: the same rule; a new product is newer than every candidate.
    expect(affects(e, change(null, state({ created: 4_000 }), "p-8"))).toBe(false);
    expect(affects(e, change(null, state({ created: 9_000 }), "p-8"))).toBe(true);
    // Unbounded answers count it: always.
    expect(affects(entry(matcher(), ["p-1"], null, { oldest: 5_000 }), change(state({ text: "cup" }), state({ created: 1 }), "p-7"))).toBe(true);
  });

  it("what the database decides: a product matching neither before nor after moves nothing, whatever its text contains", () => {
    // "lamp" inside "clamp" is no word start: the text contains the term, yet no match either time.
    expect(affects(entry(matcher()), change(state({ text: "clamp" }), state({ text: "clamp set" })))).toBe(false);
    expect(affects(entry(matcher()), change(state({ text: "clamp" }), state({ text: "lamp" })))).toBe(true);
    // Not sure (after a combining mark): affected.
    expect(affects(entry(matcher()), change(state({ text: "clamp" }), state({ text: "क्lamp" })))).toBe(true);
  });

  it("a bounded ranking: a product newer than its oldest candidate that becomes a match, or a match that stops being one, counts though the text still holds the term", () => {
    const e = entry(matcher(), ["p-1"], ["p-1", "p-2"], { oldest: 5_000, margin: 1 });
    expect(affects(e, change(state({ text: "clamp", created: 6_000 }), state({ text: "lamp", created: 6_000 }), "p-7"))).toBe(true);
    expect(affects(e, change(state({ text: "clamp", created: 4_000 }), state({ text: "lamp", created: 4_000 }), "p-7"))).toBe(false);
    // Leaving: the margin is spent, then the answer is marked.
    const leaves = () => affects(e, change(state({ text: "lamp", created: 4_000 }), state({ text: "clamp", created: 4_000 }), "p-8"));
    expect([leaves(), leaves()]).toEqual([false, true]);
  });

  it("an unbounded ranking (exact total and facets): a product beyond its kept candidates moves its total and facets by one, its page not at all", () => {
    const e = (over: { complete?: boolean; facets?: boolean; categories?: Set<string> } = {}) =>
      entry(matcher({ facets: over.facets ?? true, categories: over.categories ?? null }), ["p-1"], ["p-1", "p-2"], {
        oldest: 5_000,
        bounded: false,
        complete: over.complete,
      });
    const edit = (before: Partial<CatalogState>, after: Partial<CatalogState>, id = "p-7") => change(state(before), state(after), id);
    // A match that stays one in its category: nothing moves.
    expect(affects(e(), edit({ created: 4_000 }, { created: 4_000, text: "lamp shade" }))).toBe(false);
    // Newer (it may enter the ranking), a kept candidate, or the candidates were every match: the page may move.
    expect(affects(e(), edit({ created: 6_000 }, { created: 6_000, text: "lamp shade" }))).toBe(true);
    expect(affects(e(), edit({ created: 4_000 }, { created: 4_000, text: "lamp shade" }, "p-2"))).toBe(true);
    expect(affects(e({ complete: true }), edit({ created: 4_000 }, { created: 4_000, text: "lamp shade" }))).toBe(true);
    expect(affects(e(), edit({ created: 6_000, text: "cup" }, { created: 6_000 }))).toBe(true);
    // Beyond the candidates: its category moves a facet; entering or leaving moves the total too.
    const beyond = { newest: [] };
    expect(affects(e(), edit({ created: 4_000 }, { created: 4_000, category: "cat-b", text: "lamp shade" }))).toEqual({
      total: 0,
      moves: [
        ["cat-a", -1],
        ["cat-b", 1],
      ],
      ...beyond,
    });
    expect(affects(e({ facets: false }), edit({ created: 4_000 }, { created: 4_000, category: "cat-b", text: "lamp shade" }))).toBe(false);
    expect(affects(e(), edit({ created: 4_000, text: "cup" }, { created: 4_000 }))).toEqual({ total: 1, moves: [["cat-a", 1]], ...beyond });
    expect(affects(e(), edit({ created: 4_000 }, { created: 4_000, text: "clamp" }))).toEqual({ total: -1, moves: [["cat-a", -1]], ...beyond });
    // Filtered by category, its facets count every category: a match entering another category moves a facet, not the total.
    expect(
      affects(e({ categories: new Set(["cat-a"]) }), edit({ created: 9_000, text: "cup", category: "cat-c" }, { created: 9_000, category: "cat-c" })),
    ).toEqual({
      total: 0,
      moves: [["cat-c", 1]],
      newest: null,
    });
    // Not sure whether it matches (a short term): the answer is computed again.
    expect(
      affects(
        entry(matcher({ terms: ["la"] }), ["p-1"], ["p-1"], { oldest: 5_000, bounded: false }),
        edit({ created: 4_000, text: "cup" }, { created: 4_000, text: "la cup" }),
      ),
    ).toBe(true);
  });

  it("a patch moves the stored total and facets where it knows how, and gives up where it does not", () => {
    const facets = (n: Record<string, number>) => ({ categories: Object.entries(n).map(([id, count]) => ({ id, name: id.toUpperCase(), count })) });
    const rest = { page: 1, limit: 20, total: 40, totalRelation: "eq", facets: facets({ "cat-a": 30, "cat-b": 10 }), facetsRelation: "eq" };
    const p = (total: number, moves: [string, number][], beyondNewest = true) => ({ total, moves, newest: beyondNewest ? [] : null });
    expect(patchedTail(rest, p(1, [["cat-b", 1]]), 40)).toEqual({ ...rest, total: 41, facets: facets({ "cat-a": 30, "cat-b": 11 }) });
    expect(
      patchedTail(
        rest,
        p(0, [
          ["cat-a", -21],
          ["cat-b", 1],
        ]),
        40,
      ),
    ).toEqual({ ...rest, facets: facets({ "cat-b": 11, "cat-a": 9 }) });
    expect(patchedTail(rest, p(-1, [["cat-b", -10]]), 40)).toEqual({ ...rest, total: 39, facets: facets({ "cat-a": 30 }) });
    // A category with no match yet (its name is not at hand), a total past the window or an "at least" one losing a match: computed again.
    expect(patchedTail(rest, p(1, [["cat-z", 1]]), 40)).toBeNull();
    expect(patchedTail({ ...rest, total: 10_000 }, p(1, []), 40)).toBeNull();
    expect(patchedTail({ ...rest, totalRelation: "gte" }, p(-1, []), 40)).toBeNull();
    // One more match leaves an "at least" total as it was.
    expect(patchedTail({ ...rest, totalRelation: "gte" }, p(1, []), 40)).toEqual({ ...rest, totalRelation: "gte" });
    // Every shown place taken: one more for a shown category is safe, one fewer or one more elsewhere is not.
    const full = { ...rest, facets: facets(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`cat-${String(i).padStart(2, "0")}`, 100 - i]))) };
    expect(patchedTail(full, p(1, [["cat-49", 1]]), 40)?.facets?.categories[49]).toEqual({ id: "cat-49", name: "CAT-49", count: 52 });
    expect(patchedTail(full, p(-1, [["cat-10", -1]]), 40)).toBeNull();
    expect(patchedTail(full, p(-1, [["cat-x", -1]]), 40)?.facets).toEqual(full.facets);
    // Facets over the newest matches: a product beyond the candidates is not among them; one that may be, is not known.
    const newest = { ...rest, facetsRelation: "gte" };
    expect(patchedTail(newest, p(1, [["cat-b", 1]]), 40)).toEqual({ ...newest, total: 41 });
    expect(patchedTail(newest, p(0, [["cat-b", 1]], false), 40)).toBeNull();
    expect(rest.facets.categories[1]!.count).toBe(10);
    // Filtered by category, the facets count more matches than the total: not past the window (there they count the
    // newest matches), nor when that number is not known; a move between categories adds none.
    expect(patchedTail(rest, p(0, [["cat-b", 1]]), 9_999)).toEqual({ ...rest, facets: facets({ "cat-a": 30, "cat-b": 11 }) });
    expect(patchedTail(rest, p(0, [["cat-b", 1]]), 10_000)).toBeNull();
    expect(patchedTail(rest, p(0, [["cat-b", 1]]), null)).toBeNull();
    // Counting the newest matches (past the window): one leaving the facets' matches may bring them back within it.
    const past = { ...rest, facetsRelation: "gte" };
    expect(patchedTail(past, p(0, [["cat-b", -1]]), 10_002)).toEqual(past);
    expect(patchedTail(past, p(0, [["cat-b", -1]]), 10_001)).toBeNull();
    expect(
      patchedTail(
        rest,
        p(0, [
          ["cat-a", -1],
          ["cat-b", 1],
        ]),
        10_000,
      ),
    ).toEqual({ ...rest, facets: facets({ "cat-a": 29, "cat-b": 11 }) });
  });

  it("a ranked candidate the page does not show: unaffected while it stays a match on the same side of the page, by its score before and after", () => {
    // The page shows p-1 (score 7) to p-3 (score 3); p-5 is ranked, p-6 a spare past the ranked ones.
    const page = { first: { score: 7, created: 100, id: "p-1" }, last: { score: 3, created: 50, id: "p-3" }, full: true };
    const places = { "p-1": 0, "p-3": 2, "p-5": 4, "p-6": CANDIDATES };
    const scored = (words: string[], over: Partial<CatalogState> = {}) =>
      state({
        created: 10,
        // The search text holds the title and keywords, so it changes with them (unchangedFor reads it).
        text: `desk lamp • ${words.join(" ")}`,
        title: words.includes("title") ? "desk lamp" : "desk",
        keywords: words.includes("keyword") ? ["lamp"] : [],
        tokens: words.includes("token") ? ["lamp"] : [],
        ...over,
      });
    const e = (over: { full?: boolean; bounded?: boolean } = {}) =>
      entry(matcher({ facets: true }), ["p-1", "p-3"], places, { page: { ...page, full: over.full ?? true }, bounded: over.bounded });
    const edit = (from: string[], to: string[], id = "p-5", over: Partial<CatalogState> = {}) => change(scored(from), scored(to, over), id);
    // Score 1 to 2: after the last product either way.
    expect(affects(e(), edit(["token"], ["title"]))).toBe(false);
    expect(affects(e({ bounded: false }), edit(["token"], ["title"]))).toBe(false);
    // Onto the page (score 4 with an older place than the last product's), above its first (7, then older), or off a page that is not full.
    expect(affects(e(), edit(["token"], ["keyword"]))).toBe(true);
    expect(affects(e(), edit(["token"], ["keyword", "title", "token"]))).toBe(true);
    expect(affects(e({ full: false }), edit(["token"], ["title"]))).toBe(true);
    // Above the first both times: the page keeps its place.
    expect(
      affects(
        e(),
        change(
          scored(["keyword", "title", "token"], { created: 200 }),
          scored(["keyword", "title", "token"], { created: 200, text: "desk lamp • lamp" }),
          "p-5",
        ),
      ),
    ).toBe(false);
    // Its category moves a facet; leaving moves the total; a state without the score's columns (before migration 0021) cannot tell.
    expect(affects(e(), edit(["token"], ["title"], "p-5", { category: "cat-b" }))).toBe(true);
    expect(affects(e(), edit(["token"], ["title"], "p-5", { text: "desk clamp" }))).toBe(true);
    expect(affects(e(), change(state({ created: 10 }), state({ created: 10, text: "desk lamp • new" }), "p-5"))).toBe(true);
    // A spare is not ranked: any score, as long as it stays a match in its category.
    expect(affects(e(), edit(["token"], ["keyword", "title", "token"], "p-6"))).toBe(false);
    expect(affects(e(), edit(["token"], ["title"], "p-6", { category: "cat-b" }))).toBe(true);
  });

  it("a new product ranked after a full page is taken in place: the total and facets move, the one leaving the ranked places too", () => {
    // Ranked candidates newest first, every one scoring 0 but `scores` (place -> score); the page shows places 0 to 2, its last scoring 3.
    const ranked = (scores: Record<number, number> = {}, size = CANDIDATES + 1) =>
      new Kept(
        Array.from({ length: size }, (_, i) => ({
          id: `c-${i}`,
          score: scores[i] ?? 0,
          created: 10_000 - i,
          category: i === CANDIDATES - 1 ? "cat-z" : "cat-a",
        })),
      );
    const page = { first: { score: 7, created: 10_000, id: "c-0" }, last: { score: 3, created: 9_998, id: "c-2" }, full: true };
    const e = (set: Kept, over: { full?: boolean; complete?: boolean; categories?: Set<string>; facets?: boolean } = {}) => ({
      ...entry(matcher({ facets: over.facets ?? true, categories: over.categories ?? null }), ["c-0", "c-1", "c-2"]),
      candidates: set,
      page: { ...page, full: over.full ?? true },
      bounded: false,
      complete: over.complete ?? false,
      hint: { kept: set, complete: over.complete ?? false, touched: new Set<string>(), departed: 0, valid: true },
      lineup: lineupOf(set),
    });
    // Score 1 (a whole word), or 4 (a keyword: above the page's last product).
    const created = (words: string[], over: Partial<CatalogState> = {}) =>
      change(null, state({ created: 20_000, title: "desk", keywords: words.includes("keyword") ? ["lamp"] : [], tokens: ["lamp"], ...over }), "p-new");
    const taken = {
      total: 1,
      moves: [["cat-a", 1]],
      newest: [
        ["cat-a", 1],
        ["cat-z", -1],
      ],
      enters: "p-new",
    };
    const lineup = (over: Partial<ReturnType<typeof lineupOf>> = {}) => ({
      boundary: CANDIDATES,
      ranked: CANDIDATES,
      addedFrom: Infinity,
      spareGap: false,
      ...over,
    });
    expect(affects(e(ranked()), created([]))).toEqual({ ...taken, lineup: lineup({ boundary: CANDIDATES - 1, addedFrom: 20_000 }) });
    // Onto the page, or a page that is not full: computed again.
    expect(affects(e(ranked()), created(["keyword"]))).toBe(true);
    expect(affects(e(ranked(), { full: false }), created([]))).toBe(true);
    // Older than every candidate (with older matches beside them): not ranked, counted in the total and facets of every match.
    expect(affects(e(ranked()), created([], { created: 8_000 }))).toEqual({ total: 1, moves: [["cat-a", 1]], newest: [] });
    // Older than the oldest ranked candidate but newer than a spare: a spare itself; the spares' order is no longer known.
    expect(affects(e(ranked()), created([], { created: 9_000 }))).toEqual({ ...taken, newest: [], lineup: lineup({ spareGap: true }) });
    // The one leaving ranked before the page's end (score 5), or changed since (its kept score not its own): computed again.
    expect(affects(e(ranked({ [CANDIDATES - 1]: 5 })), created([]))).toBe(true);
    const touched = e(ranked());
    touched.hint.touched.add(`c-${CANDIDATES - 1}`);
    expect(affects(touched, created([]))).toBe(true);
    // A hint no longer valid (past 200 changed products, those taken in place among them) cannot tell either.
    const invalid = e(ranked());
    invalid.hint.valid = false;
    expect(affects(invalid, created([]))).toBe(true);
    // Each new product taken pushes out the one before: the second one's leaving candidate is at place CANDIDATES - 2.
    const second = e(ranked({ [CANDIDATES - 2]: 5 }));
    expect(affects(second, created([]))).toMatchObject({ enters: "p-new" });
    second.added.add("p-first");
    second.lineup = lineup({ boundary: CANDIDATES - 1, addedFrom: 20_000 });
    expect(affects(second, created([], { created: 20_001 }))).toBe(true);
    // Nor when the oldest ranked is not older than every product taken in (one taken in among the candidates' times).
    const among = e(ranked());
    among.lineup = lineup({ addedFrom: 9_001 });
    expect(affects(among, created([]))).toBe(true);
    // A product taken in place is not among the kept candidates: a change the answer reads computes it again, bounded too
    // (which ignores a match newer than its oldest candidate that stays one, as every such match is a candidate).
    const retitled = change(state({ created: 20_000, tokens: ["lamp"] }), state({ created: 20_000, title: "desk lamp", text: "desk lamp • lamp" }), "p-first");
    expect(affects(second, retitled)).toBe(true);
    expect(affects({ ...second, bounded: true }, retitled)).toBe(true);
    expect(affects({ ...second, bounded: true }, { ...retitled, productId: "p-other" })).toBe(false);
    expect(affects(second, change(state({ created: 20_000 }), state({ created: 20_000, price: "12.00" }), "p-first"))).toBe(false);
    // Every match kept, the ranked places not full: nothing leaves, and a product of any age is ranked.
    const few = { ...taken, newest: [["cat-a", 1]], lineup: { boundary: 3, ranked: 4, addedFrom: 20_000, spareGap: false } };
    expect(affects(e(ranked({}, 3), { complete: true }), created([]))).toEqual(few);
    expect(affects(e(ranked({}, 3), { complete: true }), created([], { created: 5 }))).toEqual({ ...few, lineup: { ...few.lineup, addedFrom: 5 } });
    // Filtered by category, the facets over the newest matches count other candidates (search.ts): not known; without facets nothing to move.
    expect(affects(e(ranked(), { categories: new Set(["cat-a"]) }), created([]))).toMatchObject({ newest: null });
    expect(affects(e(ranked(), { facets: false }), created([]))).toMatchObject({ ...taken, moves: [], newest: [] });
    // A product of the catalog that starts to match is taken in as a new one is.
    const starts = change(state({ created: 20_000, text: "desk", title: "desk", keywords: [], tokens: [] }), created([]).after, "p-old");
    expect(affects(e(ranked()), starts)).toMatchObject({ total: 1, enters: "p-old" });
  });

  it("a kept candidate that stops matching after a full page is taken out in place: the newest spare takes its ranked place", () => {
    // As above: candidates newest first, scoring 0 but `scores`; the page shows places 0 to 2, its last scoring 3.
    const kept = (scores: Record<number, number> = {}, size = CANDIDATES + 2) =>
      new Kept(
        Array.from({ length: size }, (_, i) => ({ id: `c-${i}`, score: scores[i] ?? 0, created: 10_000 - i, category: i >= CANDIDATES ? "cat-s" : "cat-a" })),
      );
    const page = { first: { score: 7, created: 10_000, id: "c-0" }, last: { score: 3, created: 9_998, id: "c-2" }, full: true };
    const e = (set: Kept, over: { complete?: boolean; bounded?: boolean; margin?: number; full?: boolean } = {}) => ({
      ...entry(matcher({ facets: true }), ["c-0", "c-1", "c-2"]),
      candidates: set,
      page: { ...page, full: over.full ?? true },
      bounded: over.bounded ?? false,
      margin: over.margin ?? 0,
      complete: over.complete ?? false,
      hint: { kept: set, complete: over.complete ?? false, touched: new Set<string>(), departed: 0, valid: true },
      lineup: lineupOf(set),
    });
    // Its score before: 1 (a whole word), or 5 with the keyword.
    const stops = (place: number, created = 10_000 - place, keywords: string[] = []) =>
      change(
        state({ created, category: place >= CANDIDATES ? "cat-s" : "cat-a", title: "desk", keywords, tokens: ["lamp"] }),
        state({ created, text: "desk", title: "desk", keywords: [], tokens: [] }),
        `c-${place}`,
      );
    const out = { total: -1, moves: [["cat-a", -1]] };
    expect(affects(e(kept()), stops(500))).toEqual({
      ...out,
      newest: [
        ["cat-a", -1],
        ["cat-s", 1],
      ],
      lineup: { boundary: CANDIDATES + 1, ranked: CANDIDATES, addedFrom: Infinity, spareGap: false },
    });
    // A spare leaving: the ranked ones stay.
    expect(affects(e(kept()), stops(CANDIDATES + 1))).toEqual({ total: -1, moves: [["cat-s", -1]], newest: [], lineup: lineupOf(kept()) });
    // Ranked before the page's end by its score before (5), a page that is not full: computed again.
    expect(affects(e(kept()), stops(500, 9_500, ["lamp"]))).toBe(true);
    expect(affects(e(kept(), { full: false }), stops(500))).toBe(true);
    // The spare coming in ranks onto the page (score 5), changed since, or its order not known: computed again.
    expect(affects(e(kept({ [CANDIDATES]: 5 })), stops(500))).toBe(true);
    const touched = e(kept());
    touched.hint.touched.add(`c-${CANDIDATES}`);
    expect(affects(touched, stops(500))).toBe(true);
    const gap = e(kept());
    gap.lineup = { ...gap.lineup, spareGap: true };
    expect(affects(gap, stops(500))).toBe(true);
    // No spare left: with older matches beside them computed again; with every match kept, one fewer is ranked.
    expect(affects(e(kept({}, CANDIDATES)), stops(500))).toBe(true);
    expect(affects(e(kept({}, 10), { complete: true }), stops(5))).toEqual({
      ...out,
      newest: [["cat-a", -1]],
      lineup: { boundary: 10, ranked: 9, addedFrom: Infinity, spareGap: false },
    });
    // Bounded ("at least" the window): the total stays while the margin lasts.
    const bounded = e(kept(), { bounded: true, margin: 1 });
    expect(affects(bounded, stops(500))).toMatchObject({ total: 0 });
    expect(affects(bounded, stops(501))).toBe(true);
    // Still a match in another category, or not sure whether it matches: computed again.
    expect(
      affects(e(kept()), change(stops(500).before, state({ created: 9_500, category: "cat-b", title: "desk", keywords: [], tokens: ["lamp"] }), "c-500")),
    ).toBe(true);
    expect(affects(e(kept()), change(stops(500).before, state({ created: 9_500, text: "desk \u0308lamp" }), "c-500"))).toBe(true);
  });

  it("a bounded ranking's total holds while its margin lasts: each match outside the candidates that leaves spends one", () => {
    const e = entry(matcher(), ["p-1"], ["p-1", "p-2"], { margin: 2 });
    const leaves = (id: string) => affects(e, change(state(), state({ text: "cup" }), id));
    expect([leaves("p-7"), leaves("p-8"), leaves("p-9")]).toEqual([false, false, true]);
    // A candidate leaving is always a change (it may be ranked on the page), and spends nothing.
    const f = entry(matcher(), ["p-1"], ["p-1", "p-2"], { margin: 1 });
    expect(affects(f, change(state(), state({ live: false }), "p-2"))).toBe(true);
    expect(affects(f, change(state(), null, "p-7"))).toBe(false);
    expect(affects(f, change(state(), null, "p-8"))).toBe(true);
  });

  it("a renamed store affects answers showing its products; categories affect all", () => {
    const renamed: CatalogChange = { ...change(null, null), kind: "seller", productId: null, sellerId: "store-1" };
    expect(affects(entry(matcher()), renamed)).toBe(true);
    expect(affects(entry(matcher()), { ...renamed, sellerId: "store-2" })).toBe(false);
    expect(affects(entry(matcher()), { ...renamed, kind: "category", sellerId: null })).toBe(true);
    // A booth (un)published: answers showing its store's products (their boothId is shown only for a
    // published booth), booth filters and exhibition filters; not another store's answers.
    expect(affects(entry(matcher()), { ...renamed, kind: "booth" })).toBe(true);
    expect(affects(entry(matcher()), { ...renamed, kind: "booth", sellerId: "store-2" })).toBe(false);
    expect(affects(entry(matcher({ boothId: "booth-9" })), { ...renamed, kind: "booth", sellerId: "store-2" })).toBe(true);
    expect(affects(entry(matcher({ exhibition: true })), { ...renamed, kind: "booth", sellerId: "store-2" })).toBe(true);
  });
});

describe("aggregate cache: a change adjusts a count only where it knows exactly", () => {
  const facets = (n: Record<string, number>) => Object.entries(n).map(([id, count]) => ({ id, n: count }));
  const value = { n: 3, facets: facets({ "cat-a": 2, "cat-b": 1 }) };

  it("a new match adds one to the total and to its category; a departure takes one off", () => {
    expect(adjusted({ matcher: matcher() }, value, change(null, state({ category: "cat-b" })))).toEqual({ n: 4, facets: facets({ "cat-a": 2, "cat-b": 2 }) });
    expect(adjusted({ matcher: matcher() }, value, change(state({ category: "cat-b" }), state({ text: "bottle" })))).toEqual({
      n: 2,
      facets: facets({ "cat-a": 2 }),
    });
    expect(adjusted({ matcher: matcher() }, value, change(state(), state({ category: "cat-b" })))).toEqual({
      n: 3,
      facets: facets({ "cat-b": 2, "cat-a": 1 }),
    });
    expect(adjusted({ matcher: matcher() }, { n: 3 }, change(state(), null))).toEqual({ n: 2 });
    // A category with no match yet enters the facets (ordered by count, then id).
    expect(adjusted({ matcher: matcher() }, value, change(null, state({ category: "cat-0" })))).toEqual({
      n: 4,
      facets: facets({ "cat-a": 2, "cat-0": 1, "cat-b": 1 }),
    });
  });

  it("leaves the stored count and facets untouched: nothing moves, or new ones are made beside them", () => {
    const stored = { n: 3, facets: facets({ "cat-a": 2, "cat-b": 1 }) };
    const copy = structuredClone(stored);
    // Matching before and after in the same category (a new title), or neither time: the same value.
    expect(adjusted({ matcher: matcher() }, stored, change(state(), state({ text: "desk lamp • new title" })))).toBe(stored);
    expect(adjusted({ matcher: matcher() }, stored, change(state({ text: "cup" }), state({ text: "mug" })))).toBe(stored);
    const moved = adjusted({ matcher: matcher() }, stored, change(state(), state({ category: "cat-b" })));
    expect(moved).toEqual({ n: 3, facets: facets({ "cat-b": 2, "cat-a": 1 }) });
    expect(adjusted({ matcher: matcher() }, stored, change(null, state({ category: "cat-0" })))?.n).toBe(4);
    expect(stored).toEqual(copy);
  });

  it("past the window, lowers a count by one per possible departure until it would reach the window", () => {
    const past = { n: 10_002, facets: facets({ "cat-a": 5 }), snapshot: "1:2:" };
    const once = lowered(past);
    expect(once).toEqual({ n: 10_001, facets: past.facets, snapshot: "1:2:" });
    // 10,001 is the last count that still says "more than 10,000": one more departure is recounted.
    expect(lowered(once!)).toBeNull();
    expect(past.n).toBe(10_002);
  });

  it("recounts where it cannot know: a short term, a booth filter, past the window", () => {
    expect(adjusted({ matcher: matcher({ terms: ["le"] }) }, value, change(null, state({ text: "led lamp" })))).toBeNull();
    expect(adjusted({ matcher: matcher({ boothId: "b-1" }) }, value, change(null, state({ booth: "b-1" })))).toBeNull();
    expect(adjusted({ matcher: matcher() }, { n: 10_000 }, change(null, state()))).toBeNull();
    expect(adjusted({ matcher: matcher() }, { n: 10_001 }, change(state(), null))).toBeNull();
  });

  it("tells a word start from a word's inside as the database does", () => {
    expect(matchesExactly(matcher({ terms: ["amp"] }), state({ text: "desk lamp" }))).toBe(false);
    expect(matchesExactly(matcher({ terms: ["lamp"] }), state({ text: "led-lamp" }))).toBe(true);
    expect(matchesExactly(matcher({ terms: ["lamp"] }), state({ text: "glühlamp" }))).toBe(false);
    // After a combining mark the engines' word characters may differ: not claimed.
    expect(matchesExactly(matcher({ terms: ["lamp"] }), state({ text: "क्lamp" }))).toBeNull();
  });

  it("decides a word with combining marks by its n-gram pairs and its word start", () => {
    const adapter = matcher({ terms: ["एडाप्टर"] });
    expect(matchesExactly(adapter, state({ text: "यूएसबी एडाप्टर" }))).toBe(true);
    expect(matchesExactly(adapter, state({ text: "(एडाप्टर)" }))).toBe(true);
    // After a letter: inside a word. After a vowel sign: a word character to the database, not claimed here.
    expect(matchesExactly(adapter, state({ text: "पावरएडाप्टर" }))).toBe(false);
    expect(matchesExactly(adapter, state({ text: "बिजलीएडाप्टर" }))).toBeNull();
    // "-" is in no word, so no stored pair holds it: the n-gram condition fails though the text holds the term.
    expect(matchesExactly(matcher({ terms: ["लैंप-बल्ब"] }), state({ text: "लैंप-बल्ब" }))).toBe(false);
    // Shorter than three characters: a whole token of the title or keywords, which the state does not tell apart.
    expect(matchesExactly(matcher({ terms: ["की"] }), state({ text: "की" }))).toBeNull();
  });
});

describe("list cache: what a relevance page may be recomputed from", () => {
  const hint = (complete: boolean, ids = ["p-1", "p-2"]) => ({ kept: kept(ids), complete, touched: new Set<string>(), departed: 0, valid: true });

  it("its candidates and every changed product that may match now, changed candidates read again", () => {
    const h = hint(false);
    track(h, matcher(), change(null, state(), "p-new"));
    track(h, matcher(), change(state(), state({ text: "bottle" }), "p-old"));
    track(h, matcher(), change(state(), state({ price: "12.00" }), "p-1"));
    expect([h.valid, [...h.touched]]).toEqual([true, ["p-new", "p-1"]]);
  });

  it("not once a candidate may have left a set with older matches behind it, or anything but a product changed", () => {
    const left = hint(false);
    track(left, matcher(), change(state(), state({ text: "bottle" }), "p-1"));
    expect(left.valid).toBe(false);
    const unsure = hint(false);
    track(unsure, matcher({ terms: ["la"] }), change(state(), state({ text: "la lamp" }), "p-1"));
    expect(unsure.valid).toBe(false);
    // Every match was a candidate: one leaving leaves nothing to take its place.
    const complete = hint(true);
    track(complete, matcher(), change(state(), null, "p-1"));
    expect(complete.valid).toBe(true);
    const booth = hint(true);
    track(booth, matcher(), { ...change(null, null), kind: "booth", productId: null });
    expect(booth.valid).toBe(false);
  });

  it("while the candidates kept past the ranked ones can fill the places of those that may have left", () => {
    const h = hint(
      false,
      Array.from({ length: CANDIDATES + 2 }, (_, i) => `p-${i + 1}`),
    );
    track(h, matcher(), change(state(), state({ text: "bottle" }), "p-1"));
    track(h, matcher(), change(state(), null, "p-2"));
    expect([h.valid, h.departed, [...h.touched]]).toEqual([true, 2, ["p-1", "p-2"]]);
    track(h, matcher(), change(state(), null, "p-3"));
    expect(h.valid).toBe(false);
  });
});

describe("aggregate cache: which changes a counting snapshot already holds", () => {
  it("reads PostgreSQL's snapshot text: below xmin seen, from xmax on not, in between unless in progress", () => {
    expect(seenBy("100:105:101,103", "99")).toBe(true);
    expect(seenBy("100:105:101,103", "102")).toBe(true);
    expect(seenBy("100:105:101,103", "103")).toBe(false);
    expect(seenBy("100:105:", "105")).toBe(false);
    expect(seenBy(undefined, "99")).toBeNull();
    expect(seenBy("100:105:", null)).toBeNull();
  });
});
