import { createHash } from "node:crypto";
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { sqlRows } from "@/lib/db/rows";
import { categories, products, sellerProfiles, users } from "@/lib/db/schema";
import { ProductListQuery } from "@/lib/schemas/products";
import { categoryNames, freshFeed, stopCatalogFeed, WINDOW_MS } from "@/lib/services/catalog/catalog-feed";
import { productQueries, rankFromHint, searchProducts, searchProductsJson, type SearchResult } from "@/lib/services/catalog/search";
import { COUNT_CAP, facetQuery, filters, planned, rankedRowsQuery, type PlanMode } from "@/lib/services/catalog/search-sql";
import { likelyHolds } from "@/lib/services/catalog/word-stats";
import { testDb } from "../support/db";

// The list and search statements must be answered from indexes at 100k products, on both engines:
// checked on the plans EXPLAIN (ANALYZE, BUFFERS) reports for the very statements the app runs.
let db: Db;
let close: () => Promise<void>;
const N = 100_000;
const CATEGORIES = 100;
let parent = "";
/** The bulk-loaded products' id prefix (`${tag}-${i}`, the i-th created i seconds before the load) and their store. */
let tag = "";
let store = "";
/** Every statement `db` runs, in order (the floor test clears it). */
const statements: string[] = [];

beforeAll(async () => {
  ({ db, close } = await testDb({ onQuery: (statement) => statements.push(statement) }));
  tag = Date.now().toString(36);
  const [u] = await db
    .insert(users)
    .values({ email: `plan-${tag}@example.test`, username: `plan_${tag}`, passwordHash: "x", role: "SELLER" })
    .returning();
  const [s] = await db.insert(sellerProfiles).values({ userId: u!.id, companyName: "Plan" }).returning();
  store = s!.id;
  // A parent with two children, and 97 other categories: the filter takes a subtree of three.
  const [p] = await db
    .insert(categories)
    .values({ slug: `plan-${tag}`, names: { en: "Plan" } })
    .returning();
  parent = p!.id;
  const leaves = await db
    .insert(categories)
    .values(Array.from({ length: CATEGORIES - 1 }, (_, i) => ({ slug: `plan-${tag}-${i}`, names: { en: `Plan ${i}` }, parentId: i < 2 ? parent : null })))
    .returning({ id: categories.id });
  const ids = [parent, ...leaves.map((l) => l.id)];
  // A bulk load: the change feed's triggers are for live writes, the word counts are rebuilt once after
  // the rows (bench/generate.ts does the same),
  // and the search (GIN) indexes are built once after the rows, from their own definitions read back
  // from the catalog, rather than taking 100k rows one by one (on PGlite ~90 s of CPU). The B-tree
  // indexes take the rows as they come, as they do in a live store: their plans are checked below.
  const indexes = await sqlRows<{ indexname: string; indexdef: string }>(
    db,
    sql`select indexname, indexdef from pg_indexes where schemaname = current_schema() and tablename = 'products' and indexdef like '% USING gin %'`,
  );
  for (const ix of indexes) await db.execute(sql.raw(`drop index "${ix.indexname}"`));
  await db.execute(sql`alter table ${products} disable trigger products_catalog_insert_delete`);
  await db.execute(sql`alter table ${products} disable trigger products_term_counts_insert_delete`);
  await db.execute(sql`
    insert into ${products} (id, seller_id, category_id, title, price, currency, moq, search_text, title_norm, cjk_grams, tokens, keywords_norm, created_at)
    select ${tag} || '-' || i, ${s!.id}, (${sql.raw(`array[${ids.map((id) => `'${id}'`).join(",")}]`)})[1 + i % ${CATEGORIES}], 'item ' || i, (i % 1000)::numeric, 'USD', 1,
      'item ' || i || ' ' || (array['lamp','bottle','chair','cable','phone'])[1 + i % 5] || ' ' || md5(i::text),
      'item ' || i,
      case when i % 1000 = 0 then array['蓝','牙','蓝牙'] else array[(array['灯','耳','椅','瓶','缆'])[1 + i % 5]] end,
      array['item', i::text],
      '{}'::text[],
      now() - i * interval '1 second'
    from generate_series(1, ${N}) i`);
  await db.execute(sql`alter table ${products} enable trigger products_catalog_insert_delete`);
  await db.execute(sql`alter table ${products} enable trigger products_term_counts_insert_delete`);
  await db.execute(sql`select catalog_term_counts_rebuild()`);
  for (const ix of indexes) await db.execute(sql.raw(ix.indexdef));
  await db.execute(sql`analyze ${products}`);
}, 300_000);
afterAll(async () => {
  stopCatalogFeed();
  await close();
});

type Statement = "rows" | "collected" | "count" | "facets" | "floor" | "wordFloor";

/** The plan of one statement, run as the app runs it: a text query under the mode its count picks (search-sql.ts). */
async function plan(query: Record<string, unknown>, statement: Statement = "rows", mode: PlanMode = "bitmap"): Promise<string> {
  const parsed = ProductListQuery.parse(query);
  const q = productQueries(db, parsed)[statement].toSQL();
  let text = q.sql;
  // Highest placeholder first, so $1 does not also replace the start of $10.
  q.params
    .map((p, i) => [p, i] as const)
    .reverse()
    .forEach(([p, i]) => (text = text.replaceAll(`$${i + 1}`, `'${String(p).replace(/'/g, "''")}'`)));
  const explain = async (tx: Db) => {
    const rows = await sqlRows<{ "QUERY PLAN": string }>(tx, sql.raw(`explain (analyze, buffers) ${text}`));
    return rows.map((r) => r["QUERY PLAN"]).join("\n");
  };
  return parsed.q || parsed.keyword ? planned(db, mode, explain) : explain(db);
}

describe(`search plans at ${N} products`, () => {
  it("has every search index take writes at once: no GIN pending list for searches to scan while sellers write", async () => {
    const list = await sqlRows<{ relname: string; reloptions: string[] | null }>(
      db,
      sql`select c.relname, c.reloptions from pg_class c join pg_index i on i.indexrelid = c.oid join pg_am a on a.oid = c.relam
          where i.indrelid = 'products'::regclass and a.amname = 'gin' order by c.relname`,
    );
    expect(list.map((r) => r.relname)).toEqual(["products_cjk_grams_idx", "products_keywords_norm_idx", "products_search_trgm_idx", "products_tokens_idx"]);
    for (const r of list) expect([r.relname, r.reloptions]).toEqual([r.relname, ["fastupdate=false"]]);
  });

  it("keeps a product's search columns in its row: a search reads them without visiting the toast table", async () => {
    const storage = await sqlRows<{ name: string }>(
      db,
      sql`select attname as name from pg_attribute where attrelid = 'products'::regclass and attnum > 0 and attstorage = 'x' order by attname`,
    );
    // What may leave a large row: what only the products a page shows read.
    expect(storage.map((c) => c.name)).toEqual(["description", "images", "keywords", "main_image_url", "price_tiers", "title"]);
    // A row with ~2 kB of search columns that do not compress (digests), past the default 2 kB target, written
    // to a table with products' columns and their storage (other writers' rows reach products' own toast
    // table meanwhile): nothing is moved out of it. With the default storage the search columns would be,
    // and then its seller and category ids (36 bytes each) while the row stayed past the target.
    const words = (n: number, salt: string) => Array.from({ length: n }, (_, i) => createHash("md5").update(`${salt}${i}`).digest("hex"));
    const rollback = new Error("rollback");
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`create temporary table wide_products (like ${products} including defaults including storage) on commit drop`);
        await tx.execute(sql`insert into wide_products (id, seller_id, category_id, title, price, currency, search_text, tokens, keywords_norm)
          values ('wide', ${store}, ${parent}, 'wide', 1, 'USD', ${words(20, "text").join(" ")}, string_to_array(${words(20, "token").join(" ")}, ' '), string_to_array(${words(20, "keyword").join(" ")}, ' '))`);
        const [{ toast }] = (await sqlRows<{ toast: string }>(
          tx,
          sql`select reltoastrelid::regclass::text as toast from pg_class where oid = 'wide_products'::regclass`,
        )) as [{ toast: string }];
        const [chunks] = await sqlRows<{ n: number }>(tx, sql.raw(`select count(*)::int as n from ${toast}`));
        expect(chunks!.n).toBe(0);
        const [size] = await sqlRows<{ n: number }>(tx, sql`select pg_column_size(w.*)::int as n from wide_products w`);
        // Past the default target (2,032 bytes on 8 kB pages), yet in the row.
        expect(size!.n).toBeGreaterThan(2_032);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
  });

  it("uses the trigram index for a 3+ character keyword", async () => {
    expect(await plan({ q: "c4ca4" })).toMatch(/products_search_trgm_idx/);
  });
  it("uses the CJK n-gram index for a 1-2 character CJK keyword", async () => {
    expect(await plan({ q: "蓝牙" })).toMatch(/products_cjk_grams_idx/);
    expect(await plan({ q: "牙" })).toMatch(/products_cjk_grams_idx/);
  });
  it("uses the word index for a short non-CJK keyword", async () => {
    expect(await plan({ q: "77" })).toMatch(/products_tokens_idx/);
  });
});

describe(`list plans at ${N} products (GET /api/products: keyword, category, price, limit 100)`, () => {
  const list = (extra: Record<string, unknown>) => ({ limit: 100, ...extra });

  it("keyword + category + price: rows and count from indexes, category subtree inside the index scan", async () => {
    for (const statement of ["rows", "count"] as const) {
      const text = await plan(list({ keyword: "c4ca4", category: parent, minPrice: 10, maxPrice: 900 }), statement);
      expect(text, statement).not.toMatch(/Seq Scan on products/);
      expect(text, statement).toMatch(/products_search_trgm_idx/);
    }
    const cjk = await plan(list({ keyword: "蓝牙", category: parent, minPrice: 10, maxPrice: 900 }), "count");
    expect(cjk).not.toMatch(/Seq Scan on products/);
    expect(cjk).toMatch(/products_cjk_grams_idx/);
  });

  it("category + price without a keyword: counted on the live-products index", async () => {
    const text = await plan(list({ category: parent, minPrice: 10, maxPrice: 900 }), "count");
    expect(text).not.toMatch(/Seq Scan on products/);
    expect(text).toMatch(/products_live_category_price_idx/);
    // The subtree is resolved first and handed to the index as an array.
    expect(text).toMatch(/category_id = ANY/);
  });

  it("the newest page of a category or of everything walks an index in order", async () => {
    for (const query of [list({ category: parent }), list({})]) {
      const text = await plan(query);
      expect(text).not.toMatch(/Seq Scan on products/);
    }
  });

  it("search facets count from the keyword index", async () => {
    const text = await plan({ q: "c4ca4" }, "facets");
    expect(text).not.toMatch(/Seq Scan on products/);
    expect(text).toMatch(/products_search_trgm_idx/);
    expect(await plan({ q: "蓝牙", minPrice: 10 }, "facets")).toMatch(/products_cjk_grams_idx/);
  });
});

// "lamp" matches a fifth of the catalog (20,000 products): contract 9.3's bounded answers.
describe(`a head term at ${N} products`, () => {
  const search = (extra: Record<string, unknown>) => searchProducts(db, ProductListQuery.parse({ q: "lamp", ...extra }), { facets: true });

  it("answers total 10000 gte and facets over the newest 1,000 matches, newest first within a score", async () => {
    const first = await search({});
    expect(first).toMatchObject({ total: 10_000, totalRelation: "gte", facetsRelation: "gte" });
    expect(first.facets!.categories.reduce((n, c) => n + c.count, 0)).toBe(1_000);
    // Every "lamp" item scores the same here, so the ranking is the newest matches (i = 5, 10, ...).
    expect(first.products.map((p) => p.title).slice(0, 3)).toEqual(["item 5", "item 10", "item 15"]);
  });

  it("pages through the ranked candidates into the rest without repeating or skipping", async () => {
    const ids: string[] = [];
    for (const page of [49, 50, 51]) ids.push(...(await search({ page, limit: 20 })).products.map((p) => p.title));
    // Positions 960-1019: the last ranked candidates, then the next matches newest first.
    expect(ids).toEqual(Array.from({ length: 60 }, (_, i) => `item ${(961 + i) * 5}`));
  });

  // A term the statistics call common is counted on an exact array index first: past COUNT_CAP there, no
  // match is collected (no statement reads row positions, ctid, as the collecting one does).
  const floors = [
    // A word of every title and token list; "lamp" is in the text but in no token list here.
    {
      q: "item",
      common: { column: "tokens", value: "item" },
      rare: { column: "tokens", value: "lamp" },
      index: "products_tokens_idx",
      facets: [50, 500],
      newest: ["item 1", "item 2", "item 3"],
    },
    // An n-gram of a fifth of the products, 蓝牙 of a thousandth.
    {
      q: "灯",
      common: { column: "cjk_grams", value: "灯" },
      rare: { column: "cjk_grams", value: "蓝牙" },
      index: "products_cjk_grams_idx",
      facets: [20, 1_000],
      newest: ["item 5", "item 10", "item 15"],
    },
  ] as const;
  it.each(floors)("counts $q past the window on $index without collecting its matches or reading its text", async (c) => {
    expect(await likelyHolds(db, [c.common], COUNT_CAP)).toBe(true);
    expect(await likelyHolds(db, [c.rare], COUNT_CAP)).toBe(false);
    // One term: its floor is the triggers' count of its products, one probe of their primary key.
    const text = await plan({ q: c.q }, "floor");
    expect(text).toMatch(/catalog_term_counts_source_term_stripe_pk/);
    expect(text).not.toMatch(/ on products|products_/);
    statements.length = 0;
    const first = await searchProducts(db, ProductListQuery.parse({ q: c.q }), { facets: true });
    expect(statements.filter((s) => s.includes("ctid"))).toEqual([]);
    // One term: its floor is the triggers' count of its products (catalog_term_counts), not 11,001 index entries.
    expect(statements.filter((s) => s.includes("catalog_term_counts"))).toHaveLength(1);
    expect(statements.filter((s) => /^select count\(\*\)/.test(s) && s.includes(`"${c.common.column}" @>`))).toEqual([]);
    expect(first).toMatchObject({ total: 10_000, totalRelation: "gte", facetsRelation: "gte" });
    // The facets of the newest 1,000 matches (the 50 largest categories): how many, and their sum.
    const shown = first.facets!.categories;
    expect([shown.length, shown.reduce((n, f) => n + f.count, 0)]).toEqual(c.facets);
    expect(first.products.map((p) => p.title).slice(0, 3)).toEqual(c.newest);
  });

  it("counts a query of several common words past the window on their indexes without reading its text", async () => {
    const q = { q: "item 灯" };
    const text = await plan(q, "wordFloor");
    expect(text).toMatch(/products_tokens_idx|products_cjk_grams_idx/);
    expect(text).not.toMatch(/search_text|products_search_trgm_idx/);
    expect(text).toMatch(/Limit .*rows=11001(\.00)? loops=1/);
    statements.length = 0;
    // "item" is in every product, 灯 in a fifth: 20,000 matches, "at least" the window without collecting them.
    const answer = await searchProducts(db, ProductListQuery.parse(q), { facets: true });
    expect(statements.filter((s) => s.includes("ctid") || s.includes("catalog_term_counts"))).toEqual([]);
    expect(statements.filter((s) => /^select count\(\*\)/.test(s) && s.includes('"tokens" @>') && s.includes('"cjk_grams" @>'))).toHaveLength(1);
    expect(answer).toMatchObject({ total: 10_000, totalRelation: "gte", facetsRelation: "gte" });
    expect(answer.products.map((p) => p.title).slice(0, 3)).toEqual(["item 5", "item 10", "item 15"]);
  });

  it("asks no floor of a query with a filter besides its text: the statistics cannot tell how many pass it", async () => {
    // "item" is a token of every product: without the filter the floor would be asked (the test above).
    for (const query of [
      { q: "item", category: parent },
      { keyword: "item", minPrice: 0.5, maxPrice: 900, limit: 100 },
    ]) {
      statements.length = 0;
      const answer = await searchProducts(db, ProductListQuery.parse(query), { facets: true });
      expect(answer.products.length, JSON.stringify(query)).toBeGreaterThan(0);
      expect(
        statements.filter((s) => /^select count\(\*\)/.test(s) && s.includes('"tokens" @>')),
        JSON.stringify(query),
      ).toEqual([]);
    }
  });

  it("refuses pages past the 10,000th result", () => {
    expect(ProductListQuery.safeParse({ q: "lamp", page: 500, limit: 20 }).success).toBe(true);
    expect(ProductListQuery.safeParse({ q: "lamp", page: 501, limit: 20 }).success).toBe(false);
  });

  it("ranks a bounded candidate set and stops counting, whatever the number of matches", async () => {
    const rows = await plan({ q: "lamp" }, "rows", "walk");
    expect(rows).toMatch(/products_created_idx/);
    expect(rows).toMatch(/rows=1101(\.00)? loops=1/);
    const counted = await plan({ q: "lamp", category: parent }, "count");
    expect(counted).toMatch(/Limit .*rows=\d+(\.\d+)? loops=1/);
  });
});

// "quartz" matches 3,000 products (within the result window), scored 0 to 7 apart from their age.
describe(`a first page of a query matching at most the window, at ${N} products`, () => {
  const QUARTZ = 3_000;
  beforeAll(async () => {
    const tag = `qz${Date.now().toString(36)}`;
    const [s] = await db.select({ id: sellerProfiles.id }).from(sellerProfiles).limit(1);
    const cats = await db.select({ id: categories.id }).from(categories).orderBy(categories.id).limit(7);
    await db.execute(sql`
      insert into ${products} (id, seller_id, category_id, title, price, currency, moq, search_text, title_norm, cjk_grams, tokens, keywords_norm, created_at)
      select ${tag} || '-' || i, ${s!.id}, (${sql.raw(`array[${cats.map((c) => `'${c.id}'`).join(",")}]`)})[1 + i % 7], 'stone ' || i, 1, 'USD', 1,
        'stone ' || i || ' quartz' || (array['', 'ite', ' clock'])[1 + i % 3], case when i % 4 = 0 then 'quartz stone ' || i else 'stone ' || i end,
        '{}'::text[], case when i % 3 = 2 then array['quartz', 'clock'] else array['stone'] end,
        case when i % 5 = 0 then array['quartz'] else '{}'::text[] end,
        now() - interval '200 days' - i * interval '1 minute'
      from generate_series(1, ${QUARTZ}) i`);
  }, 120_000);

  it("reads the matches once for the count, the facets and the candidates, and scores the kept candidates only", async () => {
    const text = await plan({ q: "quartz" }, "collected");
    expect(text).not.toMatch(/Seq Scan on products/);
    // One pass over the keyword index; the score's own reads are one per kept candidate (1,000 and the 100
    // spare), each straight to the row the pass found (no index).
    expect(text.match(/Bitmap Index Scan on products_search_trgm_idx/g)).toHaveLength(1);
    expect(text).toMatch(/Tid Scan on products .*loops=1100\)/);
    expect(text).not.toMatch(/on products_pkey .*loops=1100\)/);
  });

  it("answers as the separate count, facet and ranking statements do", async () => {
    const q = ProductListQuery.parse({ q: "quartz", limit: 30 });
    const one = await planned(db, "bitmap", (tx) => rankedRowsQuery(tx, q, null, { collect: true }));
    const ranked = await planned(db, "bitmap", (tx) => rankedRowsQuery(tx, q));
    const facets = await planned(db, "bitmap", (tx) => facetQuery(tx, filters(q, { withCategory: false })));
    expect(one.map((r) => r.p.id)).toEqual(ranked.map((r) => r.p.id));
    // The ranking is by score first: the best-scored stones are not simply the newest ones.
    expect(one.map((r) => r.p.title).slice(0, 3)).not.toEqual(["stone 1", "stone 2", "stone 3"]);
    expect(one[0]!.found).toBe(QUARTZ);
    expect(ranked[0]!.found).toBe(1_101);
    expect(one[0]!.candidates).toEqual(ranked[0]!.candidates);
    expect(facets[0]!.total).toBe(QUARTZ);
    expect(one[0]!.facets).toEqual(facets.map(({ id, n }) => ({ id, n })));
    expect(one[0]!.facets!.reduce((n, f) => n + f.n, 0)).toBe(QUARTZ);
  });

  it("ranks a page again from kept candidates and the products changed since as the statement over every match does", async () => {
    const q = ProductListQuery.parse({ q: "quartz", limit: 30 });
    const candidatesOf = (rows: Awaited<ReturnType<typeof rankedRowsQuery>>) =>
      rows[0]!.candidates!.map(([id, score, created, category]) => ({ id, score: score!, created, category }));
    const before = candidatesOf(await planned(db, "bitmap", (tx) => rankedRowsQuery(tx, q)));
    const rollback = new Error("rollback");
    await expect(
      db.transaction(async (tx) => {
        // A candidate scores higher (a keyword now), another lower (no keyword, no word), a third stops
        // matching (a kept spare takes its place), an older match changes, and a new best match arrives
        // (newest of all): only these five are read again.
        const [up, down] = [before.find((c) => c.score === 0)!, before.find((c) => c.score >= 5)!];
        const [old] = await tx
          .select({ id: products.id })
          .from(products)
          .where(sql`${products.title} like 'stone %'`)
          .orderBy(products.createdAt)
          .limit(1);
        const oldId = old!.id;
        await tx.execute(sql`update ${products} set keywords_norm = array['quartz'], tokens = array['quartz'] where id = ${up.id}`);
        await tx.execute(sql`update ${products} set keywords_norm = '{}', tokens = '{}' where id = ${down.id}`);
        const gone = before.find((c) => c.id !== up.id && c.id !== down.id)!;
        await tx.execute(
          sql`update ${products} set search_text = 'stone gone', title_norm = 'stone gone', keywords_norm = '{}', tokens = '{}' where id = ${gone.id}`,
        );
        await tx.execute(sql`update ${products} set price = 2 where id = ${oldId}`);
        const [fresh] = await tx
          .insert(products)
          .values({
            sellerId: (await tx.select({ id: sellerProfiles.id }).from(sellerProfiles).limit(1))[0]!.id,
            categoryId: up.category,
            title: "quartz clock",
            price: "1",
            currency: "USD",
            searchText: "quartz clock",
            titleNorm: "quartz clock",
            tokens: ["quartz", "clock"],
            keywordsNorm: ["quartz"],
          })
          .returning({ id: products.id });
        const changed = new Set([up.id, down.id, gone.id, oldId, fresh!.id]);
        const hint = { kept: before.filter((c) => !changed.has(c.id)), reread: [...changed] };
        for (const page of [1, 3]) {
          const pq = { ...q, page };
          const full = await planned(tx, "bitmap", (t) => rankedRowsQuery(t, pq));
          const again = await rankFromHint(tx, pq, null, hint);
          expect(again.rows.map((r) => r.p.id)).toEqual(full.map((r) => r.p.id));
          expect(again.found).toBe(full[0]!.found);
          expect(again.candidates).toEqual(candidatesOf(full));
          expect(await again.facets!()).toEqual(full[0]!.facets);
        }
        // The new product ranks first; the one that lost its keyword is no longer on the first page.
        const first = await rankFromHint(tx, q, null, hint);
        expect(first.rows[0]!.p.id).toBe(fresh!.id);
        expect(first.rows.map((r) => r.p.id)).not.toContain(down.id);
        expect(first.candidates!.map((c) => c.id)).not.toContain(gone.id);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
  });
});

describe(`the list cache at ${N} products`, () => {
  it("keeps an answer counting every match when a match too old to be ranked changes, moves its total and facets in place, and recomputes it when it cannot", async () => {
    // "lamp" up to 300: ~6,100 matches in 20 categories, an exact total and facets, ranked over the newest 1,100 of them.
    const q = ProductListQuery.parse({ q: "lamp", maxPrice: 300 });
    const search = async (ownStore?: string) => {
      const answer = await searchProductsJson(db, q, { facets: true, ownStore });
      return { cache: answer.cache, body: JSON.parse(answer.body.toString("utf8")) as SearchResult };
    };
    // The 3,000 products written before this test reach the change feed as one burst, which drops every cached
    // answer (catalog-feed.ts BURST_MAX): taken in before the first answer here, so that only this test's own
    // writes can reach it. (A poll still bringing it in while the first answer was computed marked that answer
    // too, rightly, and the steps below then found it recomputed.)
    await new Promise((r) => setTimeout(r, WINDOW_MS));
    await freshFeed(db);
    const first = await search();
    expect([first.body.totalRelation, first.body.facetsRelation, first.body.total > 1_100, first.body.total <= 10_000]).toEqual(["eq", "eq", true, true]);
    expect((await search()).cache).toBe("hit");
    const product = (i: number) => sql`${products.id} = ${`${tag}-${i}`}`;
    const since = async (write: () => Promise<unknown>) => {
      const at = Date.now();
      await write();
      // Past the window: an answer the change marked is computed again by now (contract 9.3).
      await new Promise((r) => setTimeout(r, Math.max(0, at + 1_100 - Date.now())));
      // Then the answer served, and the one the store's own read computes from the database (its store changed a
      // moment ago; that read stores its answer, so each step starts from an exact one).
      const [served, truth] = [await search(), await search(store)];
      expect(truth.cache).toBe("bypass");
      expect(served.body).toEqual(truth.body);
      return served;
    };
    const countOf = (body: SearchResult, category: string) => body.facets!.categories.find((f) => f.id === category)?.count;
    const changed = [99_000, 99_001, 99_002].map((i) => `${tag}-${i}`);
    const saved = await db
      .select({ id: products.id, text: products.searchText, category: products.categoryId })
      .from(products)
      .where(inArray(products.id, changed));
    const lamps = saved.find((r) => r.id === changed[0])!.category;
    try {
      // The oldest product (a lamp at price 0) gets a new text that still matches: nothing the answer shows moves.
      expect(await since(() => db.execute(sql`update ${products} set search_text = search_text || ' shade' where ${product(99_000)}`))).toMatchObject({
        cache: "hit",
        body: { total: first.body.total },
      });
      // It stops being a lamp: one match and one of its category's fewer, taken in place.
      const leaves = await since(() => db.execute(sql`update ${products} set search_text = replace(search_text, 'lamp', 'lump') where ${product(99_000)}`));
      expect([leaves.cache, leaves.body.total, countOf(leaves.body, lamps)]).toEqual(["hit", first.body.total - 1, countOf(first.body, lamps)! - 1]);
      // An old bottle at price 1 becomes a lamp of that category: back to the first figures, in place too.
      const enters = await since(() =>
        db.execute(sql`update ${products} set search_text = search_text || ' lamp', category_id = ${lamps} where ${product(99_001)}`),
      );
      expect([enters.cache, enters.body.total, countOf(enters.body, lamps)]).toEqual(["hit", first.body.total, countOf(first.body, lamps)]);
      // An old chair becomes a lamp of a category with no lamp yet: its facet needs a name the answer lacks, so it is computed again.
      const fresh = await since(() => db.execute(sql`update ${products} set search_text = search_text || ' lamp' where ${product(99_002)}`));
      expect([fresh.cache, fresh.body.total]).toEqual(["miss", first.body.total + 1]);
    } finally {
      for (const r of saved) await db.update(products).set({ searchText: r.text, categoryId: r.category }).where(eq(products.id, r.id));
    }
  });

  it("takes a new match ranked after the page in place, the oldest ranked candidate leaving for the spares", async () => {
    // The newest 30 lamps up to 300 get the word as a keyword (score 4, the others 0): the first page is theirs, and a new
    // lamp scoring 0 ranks after it; the 1,000th newest match (score 0, after the page too) leaves the ranked places.
    const q = ProductListQuery.parse({ q: "lamp", maxPrice: 300 });
    const search = async (ownStore?: string) => {
      const answer = await searchProductsJson(db, q, { facets: true, ownStore });
      return { cache: answer.cache, body: JSON.parse(answer.body.toString("utf8")) as SearchResult };
    };
    const best = Array.from({ length: 30 }, (_, k) => `${tag}-${5 + 5 * k}`);
    const wait = (at: number) => new Promise((r) => setTimeout(r, Math.max(0, at + 1_100 - Date.now())));
    const newId = `${tag}-new`;
    try {
      let at = Date.now();
      await db
        .update(products)
        .set({ keywordsNorm: ["lamp"] })
        .where(inArray(products.id, best));
      await wait(at);
      // The store's own read stores an exact answer; the next read is served from it.
      const first = await search(store);
      expect([first.body.totalRelation, first.body.products.every((p) => best.includes(p.id)), (await search()).cache]).toEqual(["eq", true, "hit"]);
      const category = first.body.facets!.categories[0]!.id;
      at = Date.now();
      await db.insert(products).values({
        id: newId,
        sellerId: store,
        categoryId: category,
        title: "item new",
        price: "5",
        currency: "USD",
        searchText: "item new lamp",
        titleNorm: "item new",
        tokens: ["item", "new"],
      });
      await wait(at);
      const [served, truth] = [await search(), await search(store)];
      expect(truth.cache).toBe("bypass");
      expect(served.body).toEqual(truth.body);
      const countOf = (body: SearchResult) => body.facets!.categories.find((f) => f.id === category)!.count;
      expect([served.cache, served.body.total, countOf(served.body)]).toEqual(["hit", first.body.total + 1, countOf(first.body) + 1]);
    } finally {
      await db.delete(products).where(eq(products.id, newId));
      await db.update(products).set({ keywordsNorm: [] }).where(inArray(products.id, best));
    }
  });
});

describe("facet names", () => {
  it("names a category created after the category tree was read (the tree is read again, not the category left out)", async () => {
    expect((await categoryNames(db, [parent])).get(parent)).toEqual({ en: "Plan" });
    const [late] = await db
      .insert(categories)
      .values({ slug: `plan-late-${Date.now().toString(36)}`, names: { en: "Late", de: "Spät" } })
      .returning({ id: categories.id });
    const names = await categoryNames(db, [parent, late!.id, "no-such-category"]);
    expect(names.get(late!.id)).toEqual({ en: "Late", de: "Spät" });
    expect(names.get(parent)).toEqual({ en: "Plan" });
    expect(names.has("no-such-category")).toBe(false);
  });
});
