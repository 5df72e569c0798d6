// The sequential-scan ground truth for search (scenario 3): the raw title, keywords and
// description matched with ILIKE / regular expressions, no search column and no index involved.
// Same match semantics as the app: CJK terms as substrings, other terms at the start of a word,
// 1-2 character non-CJK terms as whole words of the title or keywords; every term must match.
import { isCjkText } from "./rand.mjs";

const likeEscape = (s) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const reEscape = (s) => s.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");
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
      params.push(`\\m${reEscape(t)}`);
    } else {
      clauses.push(`${NAMED} ~* $${n}`);
      params.push(`\\m${reEscape(t)}\\M`);
    }
  }
  return { where: clauses.join(" and "), params };
}
