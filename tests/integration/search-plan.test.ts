import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { categories, products, sellerProfiles, users } from "@/lib/db/schema";
import { ProductListQuery } from "@/lib/schemas/products";
import { productRowsQuery } from "@/lib/services/catalog/search";
import { testDb } from "../support/db";

// The keyword query must be answered from an index at 100k products, on both engines.
let db: Db;
let close: () => Promise<void>;
const N = 100_000;

beforeAll(async () => {
  ({ db, close } = await testDb());
  const tag = Date.now().toString(36);
  const [u] = await db.insert(users).values({ email: `plan-${tag}@example.test`, username: `plan_${tag}`, passwordHash: "x", role: "SELLER" }).returning();
  const [s] = await db.insert(sellerProfiles).values({ userId: u!.id, companyName: "Plan" }).returning();
  const [c] = await db.insert(categories).values({ slug: `plan-${tag}`, names: { en: "Plan" } }).returning();
  await db.execute(sql`
    insert into ${products} (id, seller_id, category_id, title, price, currency, moq, search_text, title_norm, cjk_grams, tokens, keywords_norm)
    select ${tag} || '-' || i, ${s!.id}, ${c!.id}, 'item ' || i, (i % 1000)::numeric, 'USD', 1,
      'item ' || i || ' ' || (array['lamp','bottle','chair','cable','phone'])[1 + i % 5] || ' ' || md5(i::text),
      'item ' || i,
      case when i % 1000 = 0 then array['蓝','牙','蓝牙'] else array[(array['灯','耳','椅','瓶','缆'])[1 + i % 5]] end,
      array['item', i::text],
      '{}'::text[]
    from generate_series(1, ${N}) i`);
  await db.execute(sql`analyze ${products}`);
}, 300_000);
afterAll(async () => close());

async function plan(term: string): Promise<string> {
  const q = productRowsQuery(db, ProductListQuery.parse({ q: term })).toSQL();
  let text = q.sql;
  q.params.forEach((p, i) => (text = text.replace(`$${i + 1}`, `'${String(p).replace(/'/g, "''")}'`)));
  const rows = (await db.execute(sql.raw(`explain ${text}`))) as unknown as { rows?: { "QUERY PLAN": string }[] } | { "QUERY PLAN": string }[];
  const list = Array.isArray(rows) ? rows : (rows.rows ?? []);
  return list.map((r) => r["QUERY PLAN"]).join("\n");
}

describe(`search plans at ${N} products`, () => {
  it("uses the trigram index for a 3+ character keyword", async () => {
    expect(await plan("c4ca4")).toMatch(/products_search_trgm_idx/);
  });
  it("uses the CJK n-gram index for a 1-2 character CJK keyword", async () => {
    expect(await plan("蓝牙")).toMatch(/products_cjk_grams_idx/);
    expect(await plan("牙")).toMatch(/products_cjk_grams_idx/);
  });
  it("uses the word index for a short non-CJK keyword", async () => {
    expect(await plan("77")).toMatch(/products_tokens_idx/);
  });
});
