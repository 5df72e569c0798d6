import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/lib/db/client";
import { sqlRows } from "@/lib/db/rows";
import { products } from "@/lib/db/schema";
import { searchColumns } from "@/lib/search/normalize";
import { gatherIfStale, likelyHolds } from "@/lib/services/catalog/word-stats";
import { storeWithCategory, testDb } from "../support/db";

// The whole-word floor asks PostgreSQL's statistics which words are common (word-stats.ts). PGlite has no
// autovacuum to gather them, so a store that grew through the app had none and the floor was never asked
// there: the statistics are gathered when they are older than the table, on both engines.
let db: Db;
let close: () => Promise<void>;
let seller = "";
let category = "";

async function addProducts(n: number, from: number) {
  await db.insert(products).values(
    Array.from({ length: n }, (_, i) => {
      const t = { title: `item ${from + i}`, keywords: i % 2 ? ["lamp"] : ["cup"] };
      return { sellerId: seller, categoryId: category, title: t.title, price: "1.00", currency: "USD", keywords: t.keywords, ...searchColumns(t) };
    }),
  );
}
const tableStats = async () =>
  (await sqlRows<{ reltuples: number }>(db, sql`select reltuples::float8 as reltuples from pg_class where oid = 'products'::regclass`))[0]!.reltuples;

beforeAll(async () => {
  ({ db, close } = await testDb());
  ({ seller, category } = await storeWithCategory(db, "Stats"));
  await addProducts(400, 0);
}, 60_000);
afterAll(async () => {
  await close();
});

describe("the statistics the floor reads", () => {
  it("are gathered in the background when the table has none, and then tell a common word from a rare one", async () => {
    const item = [{ column: "tokens" as const, value: "item" }];
    // Never gathered: no word is known to be common, and the search does not wait for them.
    expect(await tableStats()).toBeLessThan(0);
    expect(await likelyHolds(db, item, 100)).toBe(false);
    await vi.waitFor(async () => expect(await tableStats()).toBe(400), { timeout: 20_000, interval: 100 });
    // "item" is a token of all 400, "lamp" of half, "cup" of the other half: 400 x 0.5 < 100 x 1.2 is false for none.
    await vi.waitFor(async () => expect(await likelyHolds(db, item, 100)).toBe(true), { timeout: 20_000, interval: 100 });
    expect(await likelyHolds(db, [{ column: "tokens", value: "lamp" }], 100)).toBe(true);
    expect(await likelyHolds(db, [{ column: "tokens", value: "lamp" }], 400)).toBe(false);
    expect(await likelyHolds(db, [{ column: "tokens", value: "bottle" }], 1)).toBe(false);
  });

  it("are gathered again once the table has grown by a fifth, not before", async () => {
    await gatherIfStale(db);
    expect(await gatherIfStale(db)).toBe(false);
    await addProducts(100, 400);
    expect(await gatherIfStale(db)).toBe(false);
    await addProducts(2_000, 500);
    expect(await gatherIfStale(db)).toBe(true);
    expect(await tableStats()).toBe(2_500);
    expect(await gatherIfStale(db)).toBe(false);
  });
});
