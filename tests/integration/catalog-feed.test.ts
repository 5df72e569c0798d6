import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { products } from "@/lib/db/schema";
import { searchColumns } from "@/lib/search/normalize";
import { freshFeed, onCatalogChanges, stopCatalogFeed, type CatalogChange } from "@/lib/services/catalog/catalog-feed";
import { storeWithCategory, testDb } from "../support/db";

// The catalog feed (catalog-feed.ts) hands each committed change to the caches once, while another
// transaction holds the cluster's xmin back (any busy PostgreSQL; a report or a backup; another database of
// the same cluster). Its first poll once started from the snapshot's xmin: a change committed before it by a
// transaction with a later xid than one still running was handed over by the next poll as new, and marked
// the answers computed in between. And every poll read again the rows of a bulk write it had taken as one
// "drop everything" (search-plan.test.ts's load-sensitive "hit" on PostgreSQL: another test file's statement
// held the xmin). PostgreSQL only: PGlite runs one transaction at a time, so no transaction runs beside another.
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

/** A transaction with an xid, open until `release()`: every snapshot's xmin is at most its xid meanwhile. */
async function holdXmin() {
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
  return async () => {
    release();
    await beside;
  };
}

/** This process's feed starts over, its changes collected from now on. */
async function newFeed(): Promise<CatalogChange[]> {
  await stopCatalogFeed();
  delete (globalThis as Record<symbol, unknown>)[Symbol.for("expo-trade.catalog-feed")];
  const handed: CatalogChange[] = [];
  onCatalogChanges("feed-test", (changes) => handed.push(...changes));
  return handed;
}

describe.runIf(!!process.env.DATABASE_URL)("the catalog feed while a transaction holds the xmin back", () => {
  it("takes a bulk write (more rows than one poll hands over) as one drop of everything, not one per poll, then hands over single changes", async () => {
    const handed = await newFeed();
    const release = await holdXmin();
    try {
      await freshFeed(db);
      const tag = Date.now().toString(36);
      await db.execute(sql`
        insert into ${products} (id, seller_id, category_id, title, price, currency, moq, search_text, title_norm, tokens, keywords_norm)
        select ${tag} || '-bulk-' || i, ${seller}, ${category}, 'bulk ' || i, 1, 'USD', 1, 'bulk ' || i, 'bulk ' || i, array['bulk'], '{}'::text[]
        from generate_series(1, 2100) i`);
      // Several polls later (each list waits for one past 700 ms; the background ones run every 200 ms).
      for (let i = 0; i < 4; i++) {
        await pause(800);
        await freshFeed(db);
      }
      expect(handed.map((c) => [c.kind, c.productId])).toEqual([["all", null]]);
      const after = await addProduct("Committed after the bulk write");
      await pause(800);
      await freshFeed(db);
      expect(handed.slice(1).map((c) => c.productId)).toEqual([after]);
    } finally {
      await release();
      await db.execute(sql`delete from ${products} where seller_id = ${seller} and title like 'bulk %'`);
    }
  });

  it("takes what was committed before it as seen, though a transaction begun earlier still runs; later changes are handed over", async () => {
    // This process's feed starts over: its first poll is the one under test.
    const handed = await newFeed();
    const release = await holdXmin();
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
      await release();
    }
  });
});
