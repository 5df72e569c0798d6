// Counts and category facets of a query, cached per process apart from its pages (issue #12): a
// page changes whenever a product it shows does, its total only when a product enters or leaves
// the match set. Past the result window a count is only a lower bound, so it is taken a little
// further (COUNT_MARGIN) and survives up to that many possible departures, each lowering it by one
// (so it stays a lower bound: a page computed from it reads its margin from it). Invalidated by the same
// catalog feed as the pages (catalog-feed.ts); consulted only while computing a page.
// Within the window a count is exact, and a change whose before and after states decide exactly whether
// the product matches (matcher.ts matchesExactly) adjusts it, and its facets, by one instead of making
// the next page recount every match (issue #12: recounts after each write were what a live catalog's
// database spent its time on).
import type { Db } from "@/lib/db/client";
import { env } from "@/lib/env";
import { RESULT_WINDOW } from "@/lib/schemas/products";
import { AnchorIndex, eachTouched } from "./anchor-index";
import { changesSince, feedPosition, freshFeed, onCatalogChanges, type CatalogChange } from "./catalog-feed";
import { matches, matchesExactly, unchangedFor, type ListMatcher } from "./matcher";

/** Counts go this far past the window, so a "gte" total outlives that many departures. */
export const COUNT_MARGIN = 1_000;
const MAX_ENTRIES = 20_000;
/** An entry is recounted after this many adjustments all the same (a bound on any drift). */
const MAX_ADJUSTMENTS = 500;

/** `snapshot`: the counting statement's pg_current_snapshot(), "xmin:xmax:xip,...". */
export type Aggregate<F> = { n: number; facets?: F[]; snapshot?: string };
type FacetCount = { id: string; n: number };
type Entry = { matcher: ListMatcher; value: Aggregate<unknown>; deadline: number; adjustments: number };
/** `anchors`: the entries a product change can bear on, by their query's terms (anchor-index.ts). */
type Cache = { entries: Map<string, Entry>; computing: Map<string, Promise<Aggregate<unknown>>>; anchors: AnchorIndex<string> };

const KEY = Symbol.for("expo-trade.aggregate-cache");
const cache = (): Cache =>
  ((globalThis as typeof globalThis & { [KEY]?: Cache })[KEY] ??= { entries: new Map(), computing: new Map(), anchors: new AnchorIndex() });

/** How a change bears on a count (and its facets): "none", "one" possible departure, or "all". */
function bearing(e: Entry, c: CatalogChange): "none" | "one" | "all" {
  if (c.kind !== "product")
    return c.kind === "seller" ? "none" : c.kind === "booth" && !e.matcher.exhibition && e.matcher.boothId === undefined ? "none" : "all";
  const before = !!c.before && matches(e.matcher, c.before);
  const after = !!c.after && matches(e.matcher, c.after);
  if (!before && !after) return "none";
  if (before && after && unchangedFor(e.matcher, c.before!, c.after!, { category: e.matcher.facets, price: false })) return "none";
  // Past the window only the count is shown (facets then come from the newest matches): each such
  // change removes at most one match.
  return e.value.n > RESULT_WINDOW ? "one" : "all";
}

/**
 * The count (and facets) after a product change, when both of its states decide the match exactly
 * and the count stays within the window; null otherwise (the entry is then recounted).
 */
export function adjusted<F>(e: Pick<Entry, "matcher">, value: Aggregate<F>, c: CatalogChange): Aggregate<F> | null {
  if (c.kind !== "product" || value.n > RESULT_WINDOW) return null;
  const before = c.before ? matchesExactly(e.matcher, c.before) : false;
  const after = c.after ? matchesExactly(e.matcher, c.after) : false;
  if (before === null || after === null) return null;
  const n = value.n - (before ? 1 : 0) + (after ? 1 : 0);
  // Past the window the answer says "at least" and its facets come from the newest matches: recounted.
  if (n > RESULT_WINDOW || n < 0) return null;
  // A match before and after in the same category (a text or price change), or no match either time: nothing moves.
  if (before === after && (!before || c.before!.category === c.after!.category)) return value;
  if (!value.facets) return { n, snapshot: value.snapshot };
  // The entry's facets are shared with answers computed from them: the moved ones are copied, not the
  // hundreds of others (this runs for every cached count a change touches, on the event loop).
  const facets = (value.facets as (F & FacetCount)[]).slice();
  const move = (category: string, by: number) => {
    const i = facets.findIndex((x) => x.id === category);
    // A category not among the facets yet enters them (their names are the category tree's).
    if (i < 0) return by > 0 && facets.push({ id: category, n: by } as F & FacetCount) > 0;
    facets[i] = { ...facets[i]!, n: facets[i]!.n + by };
    return true;
  };
  if ((before && !move(c.before!.category, -1)) || (after && !move(c.after!.category, 1))) return null;
  const kept = facets.filter((f) => f.n > 0).sort((a, b) => facetOrder(a.n, a.id, b.n, b.id));
  return { n, facets: kept, snapshot: value.snapshot };
}

/** Facets in the order the statements give them (search-sql.ts facetQuery): the larger count first, then the id. */
export function facetOrder(aCount: number, aId: string, bCount: number, bId: string): number {
  return bCount - aCount || (aId < bId ? -1 : aId > bId ? 1 : 0);
}

/**
 * A count past the window after a possible departure: lowered by one, so it stays a lower bound (a page
 * computed from it reads how many more departures it survives from it); null once it would reach the window.
 */
export function lowered<F>(value: Aggregate<F>): Aggregate<F> | null {
  return value.n - 1 > RESULT_WINDOW ? { ...value, n: value.n - 1 } : null;
}

/** Did the snapshot ("xmin:xmax:xip,...") already see transaction `tx`? null when either is unknown. */
export function seenBy(snapshot: string | undefined, tx: string | null | undefined): boolean | null {
  if (!snapshot || !tx) return null;
  const [xmin, xmax, xip] = snapshot.split(":");
  if (xmin === undefined || xmax === undefined) return null;
  const id = BigInt(tx);
  if (id < BigInt(xmin)) return true;
  if (id >= BigInt(xmax)) return false;
  return !(xip ?? "")
    .split(",")
    .filter(Boolean)
    .some((x) => BigInt(x) === id);
}

/** Also for changes processed while the entry was being computed: the snapshot tells whether it holds them. */
function apply(e: Entry, c: CatalogChange) {
  const b = bearing(e, c);
  if (b === "none") return;
  // Counted from a snapshot that already held this change: nothing to do. Not seen: it can be applied,
  // whenever the feed handed it over.
  const seen = seenBy(e.value.snapshot, c.tx);
  if (seen === true) return;
  const lower = b === "one" ? lowered(e.value) : null;
  if (lower) {
    e.value = lower;
    return;
  }
  // Adjusted only by a change the counting snapshot is known not to have seen.
  if (b === "all" && seen === false && e.deadline === Infinity && e.adjustments < MAX_ADJUSTMENTS) {
    const next = adjusted(e, e.value, c);
    if (next) {
      if (next !== e.value) e.adjustments++;
      e.value = next;
      return;
    }
  }
  if (c.deadline < e.deadline) e.deadline = c.deadline;
}

function onChanges(changes: CatalogChange[]) {
  // bearing() is "none" for every entry whose query cannot match the product before or after.
  const c = cache();
  eachTouched(changes, c.entries, c.anchors, apply);
}

/** `compute()`'s count (and facets) for `key`, from the cache while no change can have altered it. */
export async function cachedAggregate<F>(
  db: Db,
  key: string,
  matcher: () => Promise<ListMatcher>,
  compute: () => Promise<Aggregate<F>>,
): Promise<Aggregate<F>> {
  if (env().SEARCH_CACHE_MB === 0) return compute();
  onCatalogChanges("aggregate-cache", onChanges);
  await freshFeed(db);
  const c = cache();
  // Only an answer no processed change has touched: a page computed now must reflect every change
  // the feed has handed over (list-cache.ts relies on it), so a marked count is recomputed.
  const hit = c.entries.get(key);
  if (hit && hit.deadline === Infinity) return hit.value as Aggregate<F>;
  let p = c.computing.get(key);
  if (!p) {
    p = fill(c, key, matcher, compute).finally(() => c.computing.delete(key));
    c.computing.set(key, p);
  }
  return p as Promise<Aggregate<F>>;
}

async function fill<F>(c: Cache, key: string, matcherOf: () => Promise<ListMatcher>, compute: () => Promise<Aggregate<F>>): Promise<Aggregate<F>> {
  const position = feedPosition();
  const [value, matcher] = await Promise.all([compute(), matcherOf()]);
  const entry: Entry = { matcher, value, deadline: Infinity, adjustments: 0 };
  for (const ch of changesSince(position)) apply(entry, ch);
  const old = c.entries.get(key);
  if (old) {
    c.entries.delete(key);
    c.anchors.delete(old.matcher.terms, key);
  }
  c.entries.set(key, entry);
  c.anchors.add(entry.matcher.terms, key);
  if (c.entries.size > MAX_ENTRIES) {
    const [oldest, e] = c.entries.entries().next().value!;
    c.entries.delete(oldest);
    c.anchors.delete(e.matcher.terms, oldest);
  }
  return value;
}
