// The start-up walk that recomputes search columns stored by an older normalization
// (lib/search/renormalize.ts), on a database of its own: it goes through the table's pages in
// order, a few at a time, and finds every stale row wherever it lies, leaving current rows as they
// are. Both engines (DATABASE_URL or PGlite). The end-to-end case (a server started on a stale row)
// is in search-scripts.test.ts.
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { sqlRows } from "@/lib/db/rows";
import { products } from "@/lib/db/schema";
import { SEARCH_NORMALIZATION_VERSION, searchColumns } from "@/lib/search/normalize";
import { renormalizeSearchColumns } from "@/lib/search/renormalize";
import { storeWithCategory, testDb } from "../support/db";

let db: Db;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, close } = await testDb());
}, 60_000);
afterAll(async () => {
  await close();
});

describe("recomputing stale search columns", () => {
  it("finds the stale rows on every page of the table, one page a step, and leaves the current ones alone", async () => {
    const { seller, category } = await storeWithCategory(db, "Walk");
    // Long descriptions: a few rows a page, so 300 rows take dozens of pages.
    const rows = Array.from({ length: 300 }, (_, i) => {
      const t = { title: `Lampe ${i}`, description: `Eine Lampe ${i}. ${"Messing und Glas. ".repeat(60)}`, keywords: ["lampe"] };
      return {
        sellerId: seller,
        categoryId: category,
        title: t.title,
        description: t.description,
        price: "1.00",
        currency: "USD",
        keywords: t.keywords,
        ...searchColumns(t),
      };
    });
    const ids = (await db.insert(products).values(rows).returning({ id: products.id })).map((r) => r.id);
    const [{ pages } = { pages: 0 }] = await sqlRows<{ pages: number }>(
      db,
      sql`select (pg_relation_size('products') / current_setting('block_size')::int)::int as pages`,
    );
    expect(pages).toBeGreaterThan(20);

    // Every 7th row as an older normalization stored it (the first, the last and those between).
    const stale = ids.filter((_, i) => i % 7 === 0 || i === ids.length - 1);
    await db
      .update(products)
      .set({ titleNorm: "old", tokens: ["old"], searchVersion: 0 })
      .where(inArray(products.id, stale));
    // A current row carrying a marker: the walk must not write it.
    await db.update(products).set({ titleNorm: "marker" }).where(eq(products.id, ids[1]!));

    expect(await renormalizeSearchColumns(db, { step: 1 })).toBe(stale.length);
    const after = await db
      .select({ id: products.id, version: products.searchVersion, titleNorm: products.titleNorm, title: products.title })
      .from(products)
      .where(inArray(products.id, ids));
    expect(after.filter((r) => r.version !== SEARCH_NORMALIZATION_VERSION)).toEqual([]);
    for (const r of after.filter((x) => stale.includes(x.id))) expect(r.titleNorm).toBe(searchColumns({ title: r.title }).titleNorm);
    expect(after.find((r) => r.id === ids[1])!.titleNorm).toBe("marker");
    // Nothing is left to do.
    expect(await renormalizeSearchColumns(db, { step: 3 })).toBe(0);
  });
});
