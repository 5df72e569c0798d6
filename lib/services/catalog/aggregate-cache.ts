// Counts and category facets of a query, cached per process apart from its pages (issue #12): a
// page changes whenever a product it shows does, its total only when a product enters or leaves
// the match set. Past the result window a count is only a lower bound, so it is taken a little
// further (COUNT_MARGIN) and survives up to that many possible departures. Invalidated by the same
// catalog feed as the pages (catalog-feed.ts); consulted only while computing a page.
import type { Db } from "@/lib/db/client";
import { env } from "@/lib/env";
import { RESULT_WINDOW } from "@/lib/schemas/products";
import { changesSince, feedPosition, freshFeed, onCatalogChanges, type CatalogChange } from "./catalog-feed";
import { matches, unchangedFor, type ListMatcher } from "./matcher";

/** Counts go this far past the window, so a "gte" total outlives that many departures. */
export const COUNT_MARGIN = 1_000;
const MAX_ENTRIES = 20_000;

export type Aggregate<F> = { n: number; facets?: F[] };
type Entry = { matcher: ListMatcher; value: Aggregate<unknown>; deadline: number; margin: number };
type Cache = { entries: Map<string, Entry>; computing: Map<string, Promise<Aggregate<unknown>>> };

const KEY = Symbol.for("expo-trade.aggregate-cache");
const cache = (): Cache => ((globalThis as typeof globalThis & { [KEY]?: Cache })[KEY] ??= { entries: new Map(), computing: new Map() });

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

function apply(e: Entry, c: CatalogChange) {
  const b = bearing(e, c);
  if (b === "none") return;
  if (b === "one" && --e.margin >= 0) return;
  if (c.deadline < e.deadline) e.deadline = c.deadline;
}

function onChanges(changes: CatalogChange[]) {
  for (const e of cache().entries.values()) for (const c of changes) apply(e, c);
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
  const entry: Entry = { matcher, value, deadline: Infinity, margin: Math.max(0, value.n - RESULT_WINDOW - 1) };
  for (const ch of changesSince(position)) apply(entry, ch);
  c.entries.delete(key);
  c.entries.set(key, entry);
  if (c.entries.size > MAX_ENTRIES) c.entries.delete(c.entries.keys().next().value!);
  return value;
}
