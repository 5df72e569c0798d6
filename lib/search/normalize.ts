// One normalization for stored text and for queries, so both sides always agree. Compatibility
// forms fold (full-width ASCII, half-width katakana, ligatures), case folds (ß as "ss"), and accents
// are removed only where they are accents: after Latin, Greek, Cyrillic, Arabic and Hebrew letters
// (Arabic harakat and Hebrew points are optional in writing, so search leaves them out as Lucene's
// Arabic normalizer does). Elsewhere combining marks are letters of the word and stay: Devanagari
// and other Indic vowel signs, virama and anusvara, Thai vowels and tones, kana voicing marks
// (recomposed, so が and か stay distinct). Katakana folds to hiragana, as Japanese shop search
// usually does: ランプ and らんぷ are the same word.
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
// Kana voicing marks with no precomposed form (か゚) stay inside their run.
const CJK_CHARS = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー\u3099\u309A`;
const MARK = /\p{M}/u;
const CJK_RUN = new RegExp(`[${CJK_CHARS}]+`, "gu");
// A word of another script written against CJK ("LED電球", "500ml装") is a word of its own, so
// PostgreSQL's `\m` sees it start and "led" finds it (CJK has no spaces to do that).
const CJK_THEN_WORD = new RegExp(`([${CJK_CHARS}])(?=(?![${CJK_CHARS}])[\\p{L}\\p{N}])`, "gu");
const WORD_THEN_CJK = new RegExp(`((?![${CJK_CHARS}])[\\p{L}\\p{M}\\p{N}])(?=[${CJK_CHARS}])`, "gu");
/** A word: letters, digits and the marks inside them (matras are \p{M}, not \p{L}). */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const ACCENTS = /([\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Common}])\p{M}+/gu;
// Marks with no letter to sit on would start a word with a mark, which PostgreSQL's `\m` (word
// start) cannot match; they carry no meaning a searcher types.
const STRAY_MARKS = /(^|[^\p{L}\p{M}\p{N}])\p{M}+/gu;
const KATAKANA = /[\u30A1-\u30F6\u30FD\u30FE]/gu;
// "_" is a word character to PostgreSQL's `\m` but not to WORD: as a space, "model_x200" has the
// word "x200" on both sides.
const CONNECTORS = /\p{Pc}/gu;

/**
 * Bump when normalizeText, words or cjkGrams change what they produce: rows stored under another
 * version are recomputed at start-up (lib/search/renormalize.ts). 0 is the database default (rows
 * written before versions existed, or by code that did not compute the columns).
 */
export const SEARCH_NORMALIZATION_VERSION = 3;

/** Accents removed where they are accents, every other mark kept; not case-folded (bench queries). */
export function stripAccents(input: string): string {
  return input.normalize("NFKD").replace(ACCENTS, "$1").replace(STRAY_MARKS, "$1").normalize("NFC");
}

export function normalizeText(input: string): string {
  return stripAccents(input)
    .toLowerCase()
    .replace(/ß/g, "ss")
    .replace(KATAKANA, (c) => String.fromCharCode(c.charCodeAt(0) - 0x60))
    .replace(CONNECTORS, " ")
    .replace(CJK_THEN_WORD, "$1 ")
    .replace(WORD_THEN_CJK, "$1 ")
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
  // Every word, not a regex for "a word holding a mark": `[\p{L}\p{N}]*\p{M}...` rescanned a long
  // markless word from each of its letters (quadratic); markedGrams skips the words without marks.
  for (const word of normalized.match(WORD) ?? []) for (const g of markedGrams(word)) grams.add(g);
  return [...grams];
}

/**
 * The character pairs of a word written with combining marks (Devanagari and other Indic scripts,
 * Thai). pg_trgm cuts words at marks, so its index barely narrows a search for such a word; these
 * pairs, kept with the CJK n-grams, let the n-gram index find them instead (search-sql.ts).
 */
export function markedGrams(word: string): string[] {
  if (!MARK.test(word)) return [];
  const chars = [...word];
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  return out;
}

/** Whole words (letters, marks and digits), for short non-CJK queries that trigrams cannot index. */
export function words(normalized: string): string[] {
  return [...new Set(normalized.match(WORD) ?? [])];
}

export type SearchColumns = {
  searchText: string;
  titleNorm: string;
  cjkGrams: string[];
  tokens: string[];
  keywordsNorm: string[];
  searchVersion: number;
};

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
    searchVersion: SEARCH_NORMALIZATION_VERSION,
  };
}

/** Split a query into terms: CJK runs and words, each normalized; at most 8 terms. */
export function queryTerms(q: string): string[] {
  const n = normalizeText(q);
  const terms = n.split(" ").filter(Boolean);
  return [...new Set(terms)].slice(0, 8);
}
