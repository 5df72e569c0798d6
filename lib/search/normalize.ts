// One normalization for stored text and for queries, so both sides always agree: Unicode NFKC
// (full-width forms fold to ASCII), case folded, accents (combining marks) removed.
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]+/gu;
const WORD = /[\p{L}\p{N}]+/gu;

export function normalizeText(input: string): string {
  return input
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .normalize("NFKC")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

export function isCjk(text: string): boolean {
  return CJK.test(text);
}

/** The 1- and 2-character n-grams of every CJK run: what a 1-2 character query is matched against. */
export function cjkGrams(normalized: string): string[] {
  const grams = new Set<string>();
  for (const run of normalized.match(CJK_RUN) ?? []) {
    const chars = [...run];
    for (let i = 0; i < chars.length; i++) {
      grams.add(chars[i]!);
      if (i + 1 < chars.length) grams.add(chars[i]! + chars[i + 1]!);
    }
  }
  return [...grams];
}

/** Whole words (letters and digits), for short non-CJK queries that trigrams cannot index. */
export function words(normalized: string): string[] {
  return [...new Set(normalized.match(WORD) ?? [])];
}

export type SearchColumns = { searchText: string; titleNorm: string; cjkGrams: string[]; tokens: string[]; keywordsNorm: string[] };

export function searchColumns(p: { title: string; description?: string | null; keywords?: readonly string[] | null }): SearchColumns {
  const keywords = (p.keywords ?? []).map(normalizeText);
  const titleNorm = normalizeText(p.title);
  const searchText = [titleNorm, ...keywords, normalizeText(p.description ?? "")].filter(Boolean).join(" \u2022 ");
  return {
    searchText,
    titleNorm,
    cjkGrams: cjkGrams(searchText),
    tokens: words([titleNorm, ...keywords].join(" ")),
    keywordsNorm: [...new Set(keywords)],
  };
}

/** Split a query into terms: CJK runs and words, each normalized; at most 8 terms. */
export function queryTerms(q: string): string[] {
  const n = normalizeText(q);
  const terms = n.split(" ").filter(Boolean);
  return [...new Set(terms)].slice(0, 8);
}
