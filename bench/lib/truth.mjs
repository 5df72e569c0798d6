// The sequential-scan ground truth for search (scenario 3): the raw title, keywords and
// description matched with ILIKE / regular expressions, no search column and no index involved.
// Same match semantics as the app: CJK terms as substrings, other terms at the start of a word,
// 1-2 character non-CJK terms as whole words of the title or keywords; every term must match.
import { isCjkText } from "./rand.mjs";

const likeEscape = (s) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const reEscape = (s) => s.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");
// A word is letters, digits and the combining marks inside them, as the app's words are
// (lib/search/normalize.ts). PostgreSQL's `\m`/`\M` count only glibc's alphanumerics and "_" as
// word characters, and Devanagari's virama and nukta are neither: `\mया\M` would find "या" inside
// "क्या" (and any word start after a virama). So word edges are spelled out as lookarounds over
// [[:alnum:]] plus every combining mark ("_" separates words, as in the app). A term must still
// begin with a letter or digit, as `\m` demands of the app's own query.
const MARKS = (() => {
  const ranges = [];
  for (let c = 0; c <= 0x10ffff; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    if (!/\p{M}/u.test(String.fromCodePoint(c))) continue;
    const last = ranges[ranges.length - 1];
    if (last && last[1] === c - 1) last[1] = c;
    else ranges.push([c, c]);
  }
  return ranges.map(([a, b]) => (a === b ? String.fromCodePoint(a) : `${String.fromCodePoint(a)}-${String.fromCodePoint(b)}`)).join("");
})();
const WORD_CHAR = `[[:alnum:]${MARKS}]`;
const wordStart = (t) => `(?<!${WORD_CHAR})(?=[[:alnum:]])${reEscape(t)}`;
const ALL = "(p.title || ' ' || array_to_string(p.keywords, ' ') || ' ' || p.description)";
const NAMED = "(p.title || ' ' || array_to_string(p.keywords, ' '))";

/** WHERE clause (products aliased p) and its parameters, numbered from `from`. */
export function truthWhere(q, from = 1) {
  const terms = [...new Set(q.toLowerCase().split(/\s+/).filter(Boolean))].slice(0, 8);
  const clauses = ["p.deleted_at is null", "not p.is_hidden"];
  const params = [];
  for (const t of terms) {
    const n = from + params.length;
    if (isCjkText(t)) {
      clauses.push(`${ALL} ilike $${n}`);
      params.push(`%${likeEscape(t)}%`);
    } else if ([...t].length >= 3) {
      clauses.push(`${ALL} ~* $${n}`);
      params.push(wordStart(t));
    } else {
      clauses.push(`${NAMED} ~* $${n}`);
      params.push(`${wordStart(t)}(?!${WORD_CHAR})`);
    }
  }
  return { where: clauses.join(" and "), params };
}
