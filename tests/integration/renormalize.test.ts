// The start-up walk that recomputes search columns stored by an older normalization
// (lib/search/renormalize.ts), on a database of its own: it takes the stale rows from their partial
// index a few at a time, finds every one wherever it lies, leaves current rows as they are, and
// reads nothing but that index when nothing is stale. Both engines (DATABASE_URL or PGlite). The
// end-to-end case (a server started on a stale row) is in search-scripts.test.ts.
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { sqlRows } from "@/lib/db/rows";
import { products } from "@/lib/db/schema";
import { SEARCH_NORMALIZATION_VERSION, searchColumns } from "@/lib/search/normalize";
import { renormalizeSearchColumns, staleIds } from "@/lib/search/renormalize";
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
  it("finds every stale row among current ones, a few a step, and leaves the current ones alone", async () => {
    const { seller, category } = await storeWithCategory(db, "Walk");
    const rows = Array.from({ length: 300 }, (_, i) => {
      const t = { title: `Lampe ${i}`, description: `Eine Lampe ${i} aus Messing und Glas.`, keywords: ["lampe"] };
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

    // Every 7th row as an older normalization stored it (the first, the last and those between).
    const stale = ids.filter((_, i) => i % 7 === 0 || i === ids.length - 1);
    await db
      .update(products)
      .set({ titleNorm: "old", tokens: ["old"], searchVersion: 0 })
      .where(inArray(products.id, stale));
    // A current row carrying a marker: the walk must not write it.
    await db.update(products).set({ titleNorm: "marker" }).where(eq(products.id, ids[1]!));

    expect(stale.length % 3).not.toBe(0);
    // Three a step: the last step finds fewer than three and ends the walk.
    expect(await renormalizeSearchColumns(db, { step: 3 })).toBe(stale.length);
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

  it("looks for stale rows in their partial index only, whose predicate names the current version", async () => {
    // Planned as for a large catalog: with a few hundred short rows a sequential scan, or a bitmap of the
    // whole index and a sort, could win; with many stale rows only the ordered walk of the index stops at the step.
    for (const after of [null, "0"]) {
      const plan = await db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        await tx.execute(sql`set local enable_bitmapscan = off`);
        return sqlRows<Record<string, string>>(tx, sql`explain ${staleIds(after, 10)}`);
      });
      const text = plan.map((r) => Object.values(r)[0]).join("\n");
      expect(text).toContain("products_search_stale_idx");
      expect(text).not.toMatch(/Seq Scan|Sort/);
    }
    // Raising SEARCH_NORMALIZATION_VERSION needs a migration with the new predicate (drizzle-kit generates it).
    const [index] = await sqlRows<{ def: string }>(db, sql`select indexdef as def from pg_indexes where indexname = 'products_search_stale_idx'`);
    expect(index?.def).toContain(`search_version < ${SEARCH_NORMALIZATION_VERSION}`);
  });
});
