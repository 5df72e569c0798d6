import { describe, expect, it } from "vitest";
import type { CatalogState } from "@/lib/db/schema";
import type { CatalogChange } from "@/lib/services/catalog/catalog-feed";
import { facetOrder } from "@/lib/services/catalog/aggregate-cache";
import { entryOf, mark, served, type Computed } from "@/lib/services/catalog/list-cache";
import type { ListMatcher } from "@/lib/services/catalog/matcher";
import { CANDIDATES, COUNT_CAP, FACETS_SHOWN, SPARE, type Candidate } from "@/lib/services/catalog/search-sql";
import { RESULT_WINDOW } from "@/lib/schemas/products";
// A deterministic generator (mulberry32): a failing run is repeated by its seed.
import { rng as random } from "../../bench/lib/rand.mjs";

// The list cache takes some changes in place (list-cache.ts: patches of the total and facets, products entering and
// leaving the ranked candidates after a full page). This drives a stored relevance answer through random changes of a
// catalog held in memory and compares it, after every change it took in place, with the answer computed afresh from
// that catalog by search.ts's rules (the newest CANDIDATES matches ranked by score, then newest first; the total exact
// to the window, then "at least"; facets over every match within the window, over the ranked ones past it). A change
// the cache marks instead is followed by the fresh answer, as a request past the deadline would store it.

type Product = { id: string; created: number; category: string; live: boolean; keyword: boolean; title: boolean; token: boolean; price: number };

const matchesLamp = (p: Product) => p.live && (p.keyword || p.title || p.token);
const scoreOf = (p: Product) => (p.keyword ? 4 : 0) + (p.title ? 2 : 0) + (p.token ? 1 : 0);

/** The product as the change feed states it (search text, and the columns the score reads). */
function stateOf(p: Product): CatalogState {
  const title = p.title ? "desk lamp" : "desk";
  const keywords = p.keyword ? ["lamp"] : ["desk"];
  return {
    live: p.live,
    category: p.category,
    price: p.price.toFixed(2),
    currency: "USD",
    moq: 1,
    oem: false,
    seller: "s-1",
    booth: null,
    text: [title, ...keywords, p.token ? "a lamp" : "a shade"].join(" • "),
    created: p.created,
    title,
    keywords,
    tokens: p.token ? ["lamp"] : [],
  };
}

const newestFirst = (a: Product, b: Product) => b.created - a.created || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
const byRank = (a: Product, b: Product) => scoreOf(b) - scoreOf(a) || newestFirst(a, b);
const LIMIT = 3;

/** The products of the answer's set: matches of `lamp`, in its categories when it has a category filter. */
const inSet = (p: Product, categories: Set<string> | null) => matchesLamp(p) && (!categories || categories.has(p.category));

/**
 * The answer search.ts computes for `lamp` (relevance, page `pageNo`), with what the cache keeps of it. Category
 * facets count the matches of every category (search.ts facetCounts ignores the category filter): every one
 * within the window, past it the newest CANDIDATES (the ranked ones when there is no category filter). `rankedIds`:
 * the ranked candidates, for checking the stored answer's lineup.
 */
function computed(
  catalog: Map<string, Product>,
  facets: boolean,
  pageNo: number,
  categories: Set<string> | null,
): Computed<{ products: { id: string; viewCount: number; seller: { id: string } }[]; [rest: string]: unknown }> & { rankedIds: Set<string> } {
  const every = [...catalog.values()].filter(matchesLamp).sort(newestFirst);
  const matches = every.filter((p) => inSet(p, categories));
  const n = matches.length;
  const ranked = matches.slice(0, CANDIDATES);
  const page = ranked
    .slice()
    .sort(byRank)
    .slice((pageNo - 1) * LIMIT, pageNo * LIMIT);
  const counted = Math.min(n, COUNT_CAP);
  const gte = counted > RESULT_WINDOW;
  const value = {
    products: page.map((p) => ({ id: p.id, viewCount: 0, seller: { id: "s-1" } })),
    page: pageNo,
    limit: LIMIT,
    total: Math.min(counted, RESULT_WINDOW),
    totalRelation: gte ? "gte" : "eq",
  };
  const candidates: Candidate[] = matches.slice(0, CANDIDATES + SPARE).map((p) => ({ id: p.id, score: scoreOf(p), created: p.created, category: p.category }));
  const ranking = {
    candidates,
    complete: n <= CANDIDATES + SPARE,
    bounded: gte && (!facets || !categories),
    margin: Math.max(0, counted - RESULT_WINDOW - 1),
    pageFull: page.length === LIMIT,
  };
  const rankedIds = new Set(ranked.map((p) => p.id));
  if (!facets) return { value, ranking, rankedIds };
  const facetsGte = Math.min(every.length, COUNT_CAP) > RESULT_WINDOW;
  const by = new Map<string, number>();
  for (const p of facetsGte ? (categories ? every.slice(0, CANDIDATES) : ranked) : every) by.set(p.category, (by.get(p.category) ?? 0) + 1);
  const shown = [...by]
    .sort(([a, x], [b, y]) => facetOrder(x, a, y, b))
    .slice(0, FACETS_SHOWN)
    .map(([id, count]) => ({ id, name: `Category ${id}`, count }));
  return {
    value: { ...value, facets: { categories: shown }, facetsRelation: facetsGte ? "gte" : "eq" },
    ranking,
    facetMatches: Math.min(every.length, COUNT_CAP),
    rankedIds,
  };
}

/** `high`: how often a match holds the word in its title, and (half as often) as a keyword; `recent`: half the changes pick among that many newest products. */
type Scenario = {
  products: number;
  matchShare: number;
  high: number;
  facets: boolean;
  page: number;
  steps: number;
  seed: number;
  recent: number;
  creates?: number;
  /** A category filter (the facets still count every category). */
  categories?: string[];
};

function run(s: Scenario) {
  const rnd = random(s.seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const categories = ["cat-a", "cat-b", "cat-c", "cat-d", "cat-e"];
  const catalog = new Map<string, Product>();
  let clock = 1_000_000;
  let made = 0;
  const make = (match: boolean): Product => {
    // Most matches score 1 (the word in the text only); a few hold it in the title or as a keyword.
    const p: Product = {
      id: `p-${String(made++).padStart(7, "0")}`,
      created: (clock += 1 + Math.floor(rnd() * 3)),
      category: pick(categories),
      live: true,
      keyword: match && rnd() < s.high / 2,
      title: match && rnd() < s.high,
      token: match,
      price: 10,
    };
    catalog.set(p.id, p);
    return p;
  };
  for (let i = 0; i < s.products; i++) make(rnd() < s.matchShare);
  const filter = s.categories ? new Set(s.categories) : null;
  const matcher: ListMatcher = { terms: ["lamp"], categories: filter, exhibition: false, facets: s.facets, priceOrder: false };
  const fresh = () => {
    const c = computed(catalog, s.facets, s.page, filter);
    return { entry: entryOf(matcher, c)!, expected: JSON.parse(JSON.stringify(c.value)) as unknown, ranked: c.rankedIds };
  };
  let { entry } = fresh();
  // What the changes did: taken in place or not, and how they moved the lineup of ranked candidates.
  const tally = { patched: 0, unaffected: 0, marked: 0, spareIn: 0, oldestOut: 0, fewerRanked: 0, moreRanked: 0, spareGap: 0 };
  for (let step = 0; step < s.steps; step++) {
    // Half of the changes among the newest products (the kept candidates and spares), the rest anywhere.
    const all = [...catalog.values()];
    const p = rnd() < 0.5 ? all[all.length - 1 - Math.floor(rnd() * Math.min(s.recent, all.length))]! : pick(all);
    const before = catalog.has(p.id) ? stateOf(p) : null;
    let changed: Product | null = p;
    const r = rnd();
    const creates = s.creates ?? 0.15;
    if (r < creates) changed = make(rnd() < 0.7);
    else if (r < creates + 0.2) {
      const field = pick(["keyword", "title", "token"] as const);
      p[field] = !p[field];
    } else if (r < 0.5) Object.assign(p, { keyword: false, title: false, token: false });
    else if (r < 0.6) Object.assign(p, { token: true });
    else if (r < 0.7) p.live = !p.live;
    else if (r < 0.8) p.category = pick(categories);
    else if (r < 0.9) p.price += 1;
    else {
      catalog.delete(p.id);
      changed = null;
    }
    const id = changed?.id ?? p.id;
    const ch: CatalogChange = {
      seq: step,
      kind: "product",
      productId: id,
      sellerId: "s-1",
      before: changed && changed !== p ? null : before,
      after: changed ? stateOf(changed) : null,
      deadline: 1_000 + step,
      n: step,
    };
    const lineup = entry.lineup;
    const tail = entry.tail;
    mark(entry, ch);
    if (entry.deadline !== Infinity) {
      tally.marked++;
      ({ entry } = fresh());
      continue;
    }
    const [was, is] = [lineup!, entry.lineup!];
    if (is.boundary > was.boundary) tally.spareIn++;
    if (is.boundary < was.boundary) tally.oldestOut++;
    if (is.ranked < was.ranked) tally.fewerRanked++;
    if (is.ranked > was.ranked) tally.moreRanked++;
    if (is.spareGap && !was.spareGap) tally.spareGap++;
    if (entry.tail !== tail) tally.patched++;
    else tally.unaffected++;
    const { expected, ranked } = fresh();
    const why = `seed ${s.seed}, step ${step}, ${JSON.stringify(ch)}`;
    expect(JSON.parse(served(entry).toString("utf8")), why).toEqual(expected);
    // The lineup names the ranked candidates as the fresh answer ranks them: the kept ones before its boundary
    // that still match are ranked, those after it are not, and it counts as many as are ranked.
    const kept = entry.candidates!;
    const misplaced: number[] = [];
    for (let i = 0; i < kept.size; i++) {
      const x = catalog.get(kept.candidate(i).id);
      if (x && inSet(x, filter) && ranked.has(x.id) !== i < entry.lineup!.boundary) misplaced.push(i);
    }
    expect([misplaced, entry.lineup!.ranked], why).toEqual([[], ranked.size]);
  }
  return tally;
}

describe("list cache: an answer taking changes in place equals the answer computed afresh", () => {
  it("every match kept (a few dozen): products entering and leaving the ranking, totals and facets", () => {
    const t = run({ products: 300, matchShare: 0.2, high: 0.05, facets: true, page: 1, steps: 1_500, seed: 1, recent: 300 });
    expect(t.patched).toBeGreaterThan(200);
    expect([t.fewerRanked, t.moreRanked].every((n) => n > 50)).toBe(true);
  });

  it("every match kept, the ranked places filling up: products taken in among the candidates' times", () => {
    const t = run({ products: 1_002, matchShare: 0.997, high: 0.002, facets: true, page: 1, steps: 1_500, seed: 5, recent: 1_100, creates: 0.35 });
    expect([t.moreRanked > 5, t.fewerRanked > 5, t.oldestOut > 50]).toEqual([true, true, true]);
  });

  it("more matches than the ranked and spare candidates: spares taking the places of those leaving", () => {
    const t = run({ products: 2_500, matchShare: 0.6, high: 0.002, facets: true, page: 1, steps: 2_000, seed: 2, recent: 2_000 });
    expect(t.patched).toBeGreaterThan(200);
    expect([t.spareIn > 50, t.oldestOut > 50, t.spareGap > 0]).toEqual([true, true, true]);
  });

  it("past the result window: an 'at least' total while its margin lasts, facets over the ranked candidates", () => {
    const t = run({ products: 10_100, matchShare: 0.995, high: 0.002, facets: true, page: 1, steps: 600, seed: 3, recent: 1_300 });
    expect(t.patched + t.unaffected).toBeGreaterThan(100);
    expect(t.spareIn).toBeGreaterThan(20);
  });

  it("a page deep in the ranking: products ranked before it, and candidates at the lineup's ends ranked onto it", () => {
    const t = run({ products: 2_500, matchShare: 0.6, high: 0.3, facets: true, page: 250, steps: 2_000, seed: 6, recent: 2_000 });
    expect([t.spareIn > 10, t.oldestOut > 5, t.spareGap > 0]).toEqual([true, true, true]);
  });

  it("filtered by category: facets over every category's matches", () => {
    const t = run({
      products: 2_500,
      matchShare: 0.6,
      high: 0.002,
      facets: true,
      page: 1,
      steps: 1_500,
      seed: 7,
      recent: 2_000,
      categories: ["cat-a", "cat-b"],
    });
    expect([t.fewerRanked > 20, t.moreRanked > 20]).toEqual([true, true]);
  });

  it("filtered by category, its facets' matches crossing the window: from counting every match to the newest and back", () => {
    // Seeds where a match outside the filter takes the facets' matches past 10,000 (204), and one leaving brings them back (210).
    for (const seed of [204, 210]) {
      const t = run({
        products: 10_100,
        matchShare: 0.995,
        high: 0.002,
        facets: true,
        page: 1,
        steps: 300,
        seed,
        recent: 1_300,
        categories: ["cat-a", "cat-b"],
      });
      expect(t.patched).toBeGreaterThan(20);
    }
  });

  it("a second page, without facets", () => {
    const t = run({ products: 2_500, matchShare: 0.6, high: 0.004, facets: false, page: 2, steps: 1_500, seed: 4, recent: 2_000 });
    expect([t.spareIn > 20, t.oldestOut > 20]).toEqual([true, true]);
  });
});
