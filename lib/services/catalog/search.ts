// Product listing and multilingual search (contract 4) on PostgreSQL's own machinery, identical on
// PGlite and PostgreSQL: trigram GIN on the normalized text for terms of 3+ characters, a GIN
// array of CJK 1-2 character n-grams for short CJK terms, whole words for short other terms.
import { and, count, desc, eq, getTableColumns, gte, inArray, isNull, lte, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { booths, categories, products, sellerProfiles } from "@/lib/db/schema";
import type { ProductListInput } from "@/lib/schemas/products";
import { isCjk, queryTerms } from "@/lib/search/normalize";
import { localizedName } from "./categories";
import { cachedJson } from "./list-cache";
import { productView } from "./product-view";

function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function wordPrefixPattern(term: string): string {
  return `\\m${term.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&")}`;
}

/**
 * How one normalized term matches, chosen so an index can answer it. CJK is matched as a substring
 * (no spaces between words); other scripts at the start of a word, so "led" finds "LED bulb" but
 * not "peeled shrimp". Both forms are answered by the trigram index.
 */
function termCondition(term: string): SQL {
  const chars = [...term].length;
  if (chars >= 3) return isCjk(term) ? sql`${products.searchText} like ${likePattern(term)}` : sql`${products.searchText} ~ ${wordPrefixPattern(term)}`;
  if (isCjk(term)) return sql`${products.cjkGrams} @> array[${term}]::text[]`;
  return sql`${products.tokens} @> array[${term}]::text[]`;
}

function termScore(term: string): SQL {
  return sql`(case when ${products.keywordsNorm} @> array[${term}]::text[] then 4 else 0 end
    + case when ${products.titleNorm} like ${likePattern(term)} then 2 else 0 end
    + case when ${products.tokens} @> array[${term}]::text[] then 1 else 0 end)`;
}

/**
 * The category and every category below it. As `= any(array(...))` the subtree is computed first
 * and the product indexes on category_id can take part (combined with the keyword and price
 * indexes); an `in (subquery)` would be joined only after fetching every other match.
 */
function categoryAndDescendants(idOrSlug: string): SQL {
  return sql`${products.categoryId} = any(array(
    with recursive sub(id) as (
      select id from ${categories} where id = ${idOrSlug} or slug = ${idOrSlug}
      union all
      select c.id from ${categories} c join sub on c.parent_id = sub.id
    ) select id from sub))`;
}

function filters(q: ProductListInput, opts: { withCategory: boolean; ownStore?: string | null }): SQL[] {
  // A store listing its own products (sellerId = its own) also sees the hidden ones.
  const own = !!opts.ownStore && q.sellerId === opts.ownStore;
  // Literal predicates (not bound parameters), so a generic plan still matches partial indexes.
  const where: SQL[] = [isNull(products.deletedAt), ...(own ? [] : [sql`not ${products.isHidden}`])];
  const text = q.q ?? q.keyword;
  if (text) for (const term of queryTerms(text)) where.push(termCondition(term));
  if (opts.withCategory && q.category) where.push(categoryAndDescendants(q.category));
  if (q.minPrice !== undefined) where.push(gte(products.price, q.minPrice.toFixed(2)));
  if (q.maxPrice !== undefined) where.push(lte(products.price, q.maxPrice.toFixed(2)));
  if (q.currency) where.push(eq(products.currency, q.currency));
  if (q.maxMoq !== undefined) where.push(lte(products.moq, q.maxMoq));
  if (q.acceptsOEM !== undefined) where.push(eq(products.acceptsOEM, q.acceptsOEM));
  if (q.sellerId) where.push(eq(products.sellerId, q.sellerId));
  if (q.boothId) where.push(eq(products.boothId, q.boothId));
  if (q.exhibitionId) {
    where.push(
      inArray(
        products.boothId,
        sql`(select ${booths.id} from ${booths} where ${booths.exhibitionId} = ${q.exhibitionId} and ${booths.isPublished})`,
      ),
    );
  }
  return where;
}

function ordering(q: ProductListInput): SQL[] {
  const text = q.q ?? q.keyword;
  switch (q.sort) {
    case "price_asc":
      return [sql`${products.price} asc`, desc(products.createdAt)];
    case "price_desc":
      return [sql`${products.price} desc`, desc(products.createdAt)];
    case "newest":
      return [desc(products.createdAt), desc(products.id)];
    default: {
      const terms = text ? queryTerms(text) : [];
      if (terms.length === 0) return [desc(products.createdAt), desc(products.id)];
      const score = terms.map(termScore).reduce((a, b) => sql`${a} + ${b}`);
      return [sql`${score} desc`, desc(products.createdAt), desc(products.id)];
    }
  }
}

// The columns an answer shows; the search columns are large (every keyword, normalized twice)
// and only the database reads them.
const { searchText: _t, titleNorm: _n, cjkGrams: _g, tokens: _w, keywordsNorm: _k, ...shownColumns } = getTableColumns(products);

/** The page query itself (exported so tests can EXPLAIN exactly what runs). */
export function productRowsQuery(db: Db, q: ProductListInput, ownStore?: string | null) {
  return db
    .select({ p: shownColumns, sellerName: sellerProfiles.companyName, sellerCountry: sellerProfiles.country, categoryNames: categories.names })
    .from(products)
    .innerJoin(sellerProfiles, eq(sellerProfiles.id, products.sellerId))
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .where(and(...filters(q, { withCategory: true, ownStore })))
    .orderBy(...ordering(q))
    .limit(q.limit)
    .offset((q.page - 1) * q.limit);
}

/** Every statement a list or search may run (exported so tests can EXPLAIN exactly what runs). */
export function productQueries(db: Db, q: ProductListInput, ownStore?: string | null) {
  return {
    rows: productRowsQuery(db, q, ownStore),
    count: db.select({ n: count() }).from(products).where(and(...filters(q, { withCategory: true, ownStore }))),
    facets: facetQuery(db, q),
  };
}

type SearchOptions = { facets: boolean; ownStore?: string | null };
export type SearchResult = Awaited<ReturnType<typeof runSearch>>;

/** A list or search answer as UTF-8 JSON (what the API sends), from the exact cache when it can. */
export async function searchProductsJson(db: Db, q: ProductListInput, opts: SearchOptions): Promise<Buffer> {
  // A store listing its own products sees its hidden ones too: that answer is its own, not cached.
  if (opts.ownStore && q.sellerId === opts.ownStore) return Buffer.from(JSON.stringify(await runSearch(db, q, opts)), "utf8");
  return cachedJson(db, JSON.stringify([q, opts.facets]), () => runSearch(db, q, { facets: opts.facets }));
}

/** The same answer as a value (pages). */
export async function searchProducts(db: Db, q: ProductListInput, opts: SearchOptions): Promise<SearchResult> {
  return JSON.parse((await searchProductsJson(db, q, opts)).toString("utf8")) as SearchResult;
}

async function runSearch(db: Db, q: ProductListInput, opts: SearchOptions) {
  const offset = (q.page - 1) * q.limit;
  const statements = productQueries(db, q, opts.ownStore);
  // The statements are independent: on PostgreSQL they run side by side on two connections.
  const [rows, facetRows] = await Promise.all([statements.rows, opts.facets ? statements.facets : undefined]);
  // A page that is not full ends the list, so the total is known exactly without counting; only a
  // full page (or an empty one past the first) needs the count.
  const ended = rows.length < q.limit && (rows.length > 0 || q.page === 1);
  const total = ended ? offset + rows.length : Number((await statements.count)[0]?.n ?? 0);
  const page = {
    products: views(rows, q.locale),
    page: q.page,
    limit: q.limit,
    total,
  };
  if (!facetRows) return page;
  return { ...page, facets: { categories: facetRows.map((f) => ({ id: f.id, name: localizedName(f.names, q.locale), count: Number(f.n) })) } };
}

type Rows = Awaited<ReturnType<typeof productRowsQuery>>;
const views = (rows: Rows, locale: string) =>
  rows.map((r) => productView(r.p, { id: r.p.sellerId, companyName: r.sellerName, country: r.sellerCountry }, localizedName(r.categoryNames, locale)));

/** One page of products without the total (pages showing a few related products). */
export async function listProducts(db: Db, q: ProductListInput) {
  return views(await productRowsQuery(db, q), q.locale);
}

/** Category counts over the same filters except the category itself, so a buyer can switch. */
function facetQuery(db: Db, q: ProductListInput) {
  return db
    .select({ id: products.categoryId, n: count(), names: categories.names })
    .from(products)
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .where(and(...filters(q, { withCategory: false })))
    .groupBy(products.categoryId, categories.names)
    .orderBy(sql`count(*) desc`)
    .limit(50);
}
