import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { sqlRows } from "@/lib/db/rows";
import { products } from "@/lib/db/schema";
import { searchColumns } from "@/lib/search/normalize";
import { COUNT_CAP, termFloorQuery } from "@/lib/services/catalog/search-sql";
import { storeWithCategory, testDb } from "../support/db";

// The floor of a one-word search reads how many listed products hold the word from catalog_term_counts,
// kept by triggers on products (migration 0031). A count above the truth would make a total "at least
// 10,000" that is not: after every kind of write the counts equal what the products hold.
let db: Db;
let close: () => Promise<void>;
let seller = "";
let category = "";

type Count = { source: string; term: string; n: number };
const kept = () =>
  sqlRows<Count>(db, sql`select source, term, sum(n)::int as n from catalog_term_counts group by source, term having sum(n) <> 0 order by source, term`);
const truth = () =>
  sqlRows<Count>(
    db,
    sql`select source, term, count(*)::int as n from (
          select 'tokens' as source, t as term from products p, unnest(p.tokens) t where p.deleted_at is null and not p.is_hidden
          union all
          select 'cjk_grams', t from products p, unnest(p.cjk_grams) t where p.deleted_at is null and not p.is_hidden
        ) w group by source, term order by source, term`,
  );
const termCount = async (column: "tokens" | "cjk_grams", value: string) => (await termFloorQuery(db, { column, value }))[0]!.n;

async function add(titles: string[], extra: { isHidden?: boolean } = {}) {
  return (
    await db
      .insert(products)
      .values(
        titles.map((title) => ({
          sellerId: seller,
          categoryId: category,
          title,
          price: "1.00",
          currency: "USD",
          ...searchColumns({ title, keywords: [] }),
          ...extra,
        })),
      )
      .returning({ id: products.id })
  ).map((r) => r.id);
}

beforeAll(async () => {
  ({ db, close } = await testDb());
  ({ seller, category } = await storeWithCategory(db, "Counts"));
}, 60_000);
afterAll(async () => {
  await close();
});

describe("the word counts the floor reads", () => {
  it("follow inserts, edits, hiding, soft and hard deletes of products", async () => {
    const base = (await termCount("tokens", "lamp")) as number;
    const ids = await add(["Desk lamp", "Floor lamp lamp", "LED 台灯", "Chair"]);
    const hidden = await add(["Hidden lamp"], { isHidden: true });
    expect(await termCount("tokens", "lamp")).toBe(base + 2);
    expect(await termCount("cjk_grams", "台灯")).toBe(1);
    expect(await termCount("tokens", "chair")).toBe(1);
    expect(await kept()).toEqual(await truth());

    // A new title: its words move; a price alone writes nothing.
    await db
      .update(products)
      .set({ title: "Desk chair", ...searchColumns({ title: "Desk chair", keywords: [] }) })
      .where(eq(products.id, ids[0]!));
    const rows = await sqlRows<{ n: number }>(db, sql`select count(*)::int as n from catalog_term_counts`);
    await db.update(products).set({ price: "2.00" }).where(inArray(products.id, ids));
    expect(await sqlRows<{ n: number }>(db, sql`select count(*)::int as n from catalog_term_counts`)).toEqual(rows);
    expect([await termCount("tokens", "lamp"), await termCount("tokens", "chair")]).toEqual([base + 1, 2]);

    // Hidden, shown, deleted (soft, then for good).
    await db.update(products).set({ isHidden: true }).where(eq(products.id, ids[1]!));
    await db.update(products).set({ isHidden: false }).where(eq(products.id, hidden[0]!));
    expect(await termCount("tokens", "lamp")).toBe(base + 1);
    await db.update(products).set({ deletedAt: new Date() }).where(eq(products.id, ids[2]!));
    expect(await termCount("cjk_grams", "台灯")).toBe(0);
    await db.delete(products).where(inArray(products.id, [ids[1]!, hidden[0]!, ids[3]!]));
    expect([await termCount("tokens", "lamp"), await termCount("tokens", "chair")]).toEqual([base, 1]);
    expect(await kept()).toEqual(await truth());
  });

  it("are capped where the floor stops, and rebuilt from the products after a bulk load", async () => {
    await add(Array.from({ length: 30 }, (_, i) => `bulk item ${i}`));
    expect(await termCount("tokens", "bulk")).toBe(30);
    await db.execute(sql`update catalog_term_counts set n = n + ${COUNT_CAP} where source = 'tokens' and term = 'bulk'`);
    expect(await termCount("tokens", "bulk")).toBe(COUNT_CAP);
    await db.execute(sql`select catalog_term_counts_rebuild()`);
    expect(await termCount("tokens", "bulk")).toBe(30);
    expect(await kept()).toEqual(await truth());
  });
});
