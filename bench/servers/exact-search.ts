// Scenario 9's baseline: the search of issue #6 (lib/services/catalog/search.ts before issue #12)
// frozen as fixed SQL, so it does not change when the app's search does. For
// GET /api/products/search?q= it ranks every match (termScore: keyword 4, title 2, whole word 1;
// then newest first), counts every match exactly when the page is full, and counts the category
// facets over every match, the rows and the facets side by side as the app did. The query
// normalization is a copy of that version's queryTerms too.
import type { RawDb } from "./db";

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

function normalizeText(input: string): string {
  return input
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .normalize("NFKC")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

export function exactTerms(q: string): string[] {
  return [...new Set(normalizeText(q).split(" ").filter(Boolean))].slice(0, 8);
}

const likePattern = (t: string) => `%${t.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const wordPrefixPattern = (t: string) => `\\m${t.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&")}`;

/** WHERE and ORDER BY of the frozen search; the WHERE's parameters come first ($1..$whereParams). */
function clauses(terms: string[]) {
  const params: unknown[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const where = ["p.deleted_at is null", "not p.is_hidden"];
  for (const t of terms) {
    const cjk = CJK.test(t);
    if ([...t].length >= 3) where.push(cjk ? `p.search_text like ${p(likePattern(t))}` : `p.search_text ~ ${p(wordPrefixPattern(t))}`);
    else where.push(cjk ? `p.cjk_grams @> array[${p(t)}]::text[]` : `p.tokens @> array[${p(t)}]::text[]`);
  }
  const whereParams = params.length;
  const score = terms.map(
    (t) =>
      `(case when p.keywords_norm @> array[${p(t)}]::text[] then 4 else 0 end + case when p.title_norm like ${p(likePattern(t))} then 2 else 0 end + case when p.tokens @> array[${p(t)}]::text[] then 1 else 0 end)`,
  );
  const order = score.length ? `${score.join(" + ")} desc, p.created_at desc, p.id desc` : "p.created_at desc, p.id desc";
  return {
    where: where.join(" and "),
    order,
    params,
    whereParams: params.slice(0, whereParams),
  };
}

const SHOWN =
  "p.id, p.seller_id, p.category_id, p.booth_id, p.title, p.description, p.price, p.currency, p.moq, p.accepts_oem, p.images, p.main_image_url, p.keywords, p.price_tiers, p.is_hidden, p.sent_by_ai, p.view_count, p.created_at, p.updated_at, p.deleted_at";

export type Row = Record<string, unknown>;

/** The page's rows, the exact total (only when the page is full, as the app did) and the facets. */
export async function exactSearch(db: RawDb, q: string, limit: number, page = 1) {
  const { where, order, params, whereParams } = clauses(exactTerms(q));
  const offset = (page - 1) * limit;
  const [rows, facets] = await Promise.all([
    db.query(
      `select ${SHOWN}, sp.company_name, sp.country, c.names from products p join seller_profiles sp on sp.id = p.seller_id join categories c on c.id = p.category_id where ${where} order by ${order} limit ${limit} offset ${offset}`,
      params,
    ),
    db.query(
      `select p.category_id as id, count(*) as n, c.names from products p join categories c on c.id = p.category_id where ${where} group by p.category_id, c.names order by count(*) desc limit 50`,
      whereParams,
    ),
  ]);
  const ended = rows.length < limit && (rows.length > 0 || page === 1);
  const total = ended ? offset + rows.length : Number((await db.query(`select count(*) as n from products p where ${where}`, whereParams))[0]?.n ?? 0);
  return { rows, total, facets };
}

/** Every match counted (scenario 9 picks its head terms with it). */
export async function exactCount(db: RawDb, q: string): Promise<number> {
  const { where, whereParams } = clauses(exactTerms(q));
  return Number((await db.query(`select count(*) as n from products p where ${where}`, whereParams))[0]?.n ?? 0);
}
