// Which changed products can alter a cached answer: the answer's query in the terms of the change
// feed's product state (catalog-feed.ts). Deliberately a superset of the search's own conditions.
import type { CatalogState } from "@/lib/db/schema";

/** What a cached answer selects, in the terms of a changed product's state. */
export type ListMatcher = {
  /** Normalized query terms: a product can match only if its search text contains each. */
  terms: string[];
  categories: Set<string> | null;
  minPrice?: number;
  maxPrice?: number;
  currency?: string;
  maxMoq?: number;
  acceptsOEM?: boolean;
  sellerId?: string;
  boothId?: string;
  /** Filtered by exhibition: which booths belong to it is not in the change, so any booth counts. */
  exhibition: boolean;
  /** The answer has category counts, so a match changing category changes it. */
  facets: boolean;
  /** The answer is ordered by price, so a match changing price may move. */
  priceOrder: boolean;
};

export function matches(m: ListMatcher, s: CatalogState): boolean {
  if (!s.live) return false;
  // A superset of the search's own conditions (word starts, n-grams and whole words are all
  // substrings of the search text): an unneeded recomputation at worst, never a stale answer.
  for (const t of m.terms) if (!s.text.includes(t)) return false;
  if (m.categories && !m.categories.has(s.category)) return false;
  const price = Number(s.price);
  if (m.minPrice !== undefined && price < m.minPrice - 0.005) return false;
  if (m.maxPrice !== undefined && price > m.maxPrice + 0.005) return false;
  if (m.currency !== undefined && s.currency !== m.currency) return false;
  if (m.maxMoq !== undefined && s.moq > m.maxMoq) return false;
  if (m.acceptsOEM !== undefined && s.oem !== m.acceptsOEM) return false;
  if (m.sellerId !== undefined && s.seller !== m.sellerId) return false;
  if (m.boothId !== undefined && s.booth !== m.boothId) return false;
  if (m.exhibition && !s.booth) return false;
  return true;
}

/**
 * Did a change leave everything the answer depends on as it was: the product's match (each field
 * the query tests is the same) and, where asked, its category (facets) and price (price order)?
 */
export function unchangedFor(m: ListMatcher, b: CatalogState, a: CatalogState, opts: { category: boolean; price: boolean }): boolean {
  if (b.live !== a.live) return false;
  if (m.terms.length && b.text !== a.text) return false;
  if ((m.categories || opts.category) && b.category !== a.category) return false;
  if ((m.minPrice !== undefined || m.maxPrice !== undefined || opts.price) && (b.price !== a.price || b.currency !== a.currency)) return false;
  if (m.currency !== undefined && b.currency !== a.currency) return false;
  if (m.maxMoq !== undefined && b.moq !== a.moq) return false;
  if (m.acceptsOEM !== undefined && b.oem !== a.oem) return false;
  if (m.sellerId !== undefined && b.seller !== a.seller) return false;
  if ((m.boothId !== undefined || m.exhibition) && b.booth !== a.booth) return false;
  return true;
}
