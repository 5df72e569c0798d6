// Which changed products can alter a cached answer: the answer's query in the terms of the change
// feed's product state (catalog-feed.ts). Deliberately a superset of the search's own conditions.
import type { CatalogState } from "@/lib/db/schema";
import { cjkGrams, isCjk, markedGrams } from "@/lib/search/normalize";

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

// Exact matching (issue #12): whether a changed product matches, decided as search-sql.ts's conditions
// decide it. A cached count or facet set is adjusted by a change instead of recounted when both of its
// states are decided (aggregate-cache.ts), and a relevance page is recomputed from its previous candidates
// when a changed candidate certainly still matches (list-cache.ts Hint). `null` means "cannot tell here":
// the count is recounted, the page computed from every match.
const WORD_CHAR = /[\p{L}\p{N}_]/u;
const SURE_BOUNDARY = /[\s!-/:-@[-^`{-~\u2022]/u;
const gramsOf = new WeakMap<CatalogState, Set<string>>();

/** Does PostgreSQL's `text ~ '\mterm'` hold? null where the engines' word characters could differ. */
function wordStart(text: string, term: string): boolean | null {
  if (!/^[\p{L}\p{N}]/u.test(term)) return null;
  let sure = true;
  for (let i = text.indexOf(term); i >= 0; i = text.indexOf(term, i + 1)) {
    // The character before the occurrence (two code units when it is outside the BMP).
    const before = i === 0 ? "" : i >= 2 && /[\uDC00-\uDFFF]/.test(text[i - 1]!) ? text.slice(i - 2, i) : text[i - 1]!;
    if (before === "" || SURE_BOUNDARY.test(before)) return true;
    // A letter, digit or "_" before it: inside a word on both engines. Anything else (a combining mark, a
    // symbol): PGlite and a libc locale may disagree, so the answer is not sure unless another place decides.
    if (!WORD_CHAR.test(before)) sure = false;
  }
  return sure ? false : null;
}

/** The product's `cjk_grams` (CJK n-grams and the pairs of marked words), from its search text as the column is. */
function gramsFor(s: CatalogState): Set<string> {
  let grams = gramsOf.get(s);
  if (!grams) gramsOf.set(s, (grams = new Set(cjkGrams(s.text))));
  return grams;
}

/** One normalized query term against a product's search text, as termCondition in search-sql.ts tests it. */
function termMatches(s: CatalogState, term: string): boolean | null {
  // Every form of the condition needs the term inside the search text (words, n-grams and word starts are substrings).
  if (!s.text.includes(term)) return false;
  const chars = [...term].length;
  const pairs = markedGrams(term);
  // A word with combining marks (Devanagari, Thai): its pairs among the n-grams, then the word start. Its pairs
  // are not always the text's (a term holding a character no word holds, such as "-"), so they are checked too.
  if (pairs.length && chars >= 3) {
    const grams = gramsFor(s);
    return pairs.every((g) => grams.has(g)) ? wordStart(s.text, term) : false;
  }
  if (chars >= 3) return isCjk(term) ? true : wordStart(s.text, term);
  if (isCjk(term)) return gramsFor(s).has(term);
  // A whole word of the title or keywords: the description's words are not told apart in the state.
  return null;
}

/** Does the product in state `s` match the answer's query, exactly as the database decides? null: not sure. */
export function matchesExactly(m: ListMatcher, s: CatalogState): boolean | null {
  if (!s.live) return false;
  // A booth filter also needs the booth published, which the state does not say.
  if (m.boothId !== undefined || m.exhibition) return matches(m, s) ? null : false;
  let result: boolean | null = true;
  for (const t of m.terms) {
    const r = termMatches(s, t);
    if (r === false) return false;
    if (r === null) result = null;
  }
  if (m.categories && !m.categories.has(s.category)) return false;
  const price = Number(s.price);
  if (m.minPrice !== undefined && price < Number(m.minPrice.toFixed(2))) return false;
  if (m.maxPrice !== undefined && price > Number(m.maxPrice.toFixed(2))) return false;
  if (m.currency !== undefined && s.currency !== m.currency) return false;
  if (m.maxMoq !== undefined && s.moq > m.maxMoq) return false;
  if (m.acceptsOEM !== undefined && s.oem !== m.acceptsOEM) return false;
  if (m.sellerId !== undefined && s.seller !== m.sellerId) return false;
  return result;
}

/**
 * The relevance score search-sql.ts termScore gives the product in state `s` for these normalized terms:
 * 4 for a keyword, 2 for the title holding it, 1 for a whole word, per term (LIKE on the escaped term is
 * a plain substring test). null where the state does not carry the columns (rows before migration 0021).
 */
export function scoreOf(terms: string[], s: CatalogState): number | null {
  if (s.title == null || !s.keywords || !s.tokens) return null;
  let score = 0;
  for (const t of terms) score += (s.keywords.includes(t) ? 4 : 0) + (s.title.includes(t) ? 2 : 0) + (s.tokens.includes(t) ? 1 : 0);
  return score;
}
