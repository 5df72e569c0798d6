import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { products } from "@/lib/db/schema";
import { searchColumns } from "@/lib/search/normalize";
import { freshFeed, onCatalogChanges, stopCatalogFeed, type CatalogChange } from "@/lib/services/catalog/catalog-feed";
import { storeWithCategory, testDb } from "../support/db";

// The catalog feed (catalog-feed.ts) hands each committed change to the caches once. Its first poll
// starts from the snapshot's xmin: a change committed before it by a transaction with a later xid than
// one still running (any busy PostgreSQL) used to be handed over by the next poll as new, and marked the
// answers computed in between (list-cache.test.ts's flaky "hit" on PostgreSQL). PostgreSQL only: PGlite
// runs one transaction at a time, so no transaction runs beside another.
let db: Db;
let close: () => Promise<void>;
let seller = "";
let category = "";
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function addProduct(title: string): Promise<string> {
  const t = { title, keywords: ["feed"] };
  const [row] = await db
    .insert(products)
    .values({ sellerId: seller, categoryId: category, title, price: "1.00", currency: "USD", keywords: t.keywords, ...searchColumns(t) })
    .returning({ id: products.id });
  return row!.id;
}

beforeAll(async () => {
  ({ db, close } = await testDb());
  ({ seller, category } = await storeWithCategory(db, "Feed"));
}, 60_000);
afterAll(async () => {
  await stopCatalogFeed();
  await close();
});

describe.runIf(!!process.env.DATABASE_URL)("the catalog feed's first poll", () => {
  it("takes what was committed before it as seen, though a transaction begun earlier still runs; later changes are handed over", async () => {
    // This process's feed starts over: its first poll is the one under test.
    await stopCatalogFeed();
    delete (globalThis as Record<symbol, unknown>)[Symbol.for("expo-trade.catalog-feed")];
    const handed: CatalogChange[] = [];
    onCatalogChanges("feed-test", (changes) => handed.push(...changes));

    // A transaction with an xid that stays open: the first poll's xmin is at most its xid.
    let release!: () => void;
    let began!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const running = new Promise<void>((r) => (began = r));
    const beside = db.transaction(async (tx) => {
      await tx.execute(sql`select pg_current_xact_id()`);
      began();
      await held;
    });
    await running;
    try {
      const before = await addProduct("Committed before the first poll");

      await freshFeed(db);
      // Past the time a list waits for a new poll (and past the background polls): the feed has polled again.
      await pause(800);
      await freshFeed(db);
      expect(handed.map((c) => c.productId)).not.toContain(before);

      const after = await addProduct("Committed after it");
      await pause(800);
      await freshFeed(db);
      expect(handed.filter((c) => c.productId === after).map((c) => c.after?.text)).toEqual([expect.stringContaining("committed after it")]);
    } finally {
      release();
      await beside;
    }
  });
});
