import postgres from "postgres";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { bumpCount } from "@/lib/api/rate-limit";
import { drizzleFor, shortDb, type Db, type DbHandle } from "@/lib/db/client";
import { resolveActor } from "@/lib/auth/resolve";
import { freshFeed, stopCatalogFeed, storeChangedRecently } from "@/lib/services/catalog/catalog-feed";

// The short statements every request makes (its rate count, the key or session behind its credentials, the
// catalog feed's poll and questions) have connections
// of their own on PostgreSQL (lib/db/client.ts shortDb): a burst of search transactions holding every
// connection of the main pool must not hold them up. Shown here with the main pool held by transactions
// that wait on a lock this test keeps: were those statements on the main pool, they would wait too (and the
// test would time out). PGlite has one connection and no second pool.
const url = process.env.DATABASE_URL;
const MAIN = 3;
const LOCK = 742_001;

describe.runIf(url)("short statements on PostgreSQL", () => {
  let handle: DbHandle & { kind: "postgres" };
  let db: Db;
  let admin: postgres.Sql;
  beforeAll(() => {
    handle = { kind: "postgres", client: postgres(url!, { max: MAIN, onnotice: () => {} }), short: postgres(url!, { max: 1, onnotice: () => {} }), url: url! };
    db = drizzleFor(handle);
    admin = postgres(url!, { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    stopCatalogFeed();
    await Promise.all([handle.client.end(), handle.short!.end(), admin.end()]);
  });

  it("answer while every connection of the main pool is held by a transaction", async () => {
    expect(shortDb(db)).not.toBe(db);
    await admin`select pg_advisory_lock(${LOCK})`;
    const holders = Array.from({ length: MAIN }, () => db.transaction((tx) => tx.execute(sql`select pg_advisory_xact_lock(${LOCK})`)));
    try {
      await vi.waitFor(
        async () => {
          const [w] = await admin`select count(*)::int as n from pg_locks where locktype = 'advisory' and objid = ${LOCK} and not granted`;
          expect(w!.n).toBe(MAIN);
        },
        { timeout: 10_000, interval: 50 },
      );
      const key = `short-pool-${Date.now().toString(36)}`;
      expect(await bumpCount(db, key, 3_600)).toBe(1);
      expect(await bumpCount(db, key, 3_600)).toBe(2);
      expect(await storeChangedRecently(db, "no-such-store")).toBe(false);
      // The feed's first poll (its snapshot), which every cached list waits for when polls are late.
      await freshFeed(db);
      // An API key is looked up before the request is refused.
      const badKey = new Request("http://localhost/api/me", { headers: { authorization: "Bearer etk_no-such-key" } });
      await expect(resolveActor(db, badKey)).rejects.toMatchObject({ code: "unauthenticated" });
    } finally {
      await admin`select pg_advisory_unlock(${LOCK})`;
      await Promise.all(holders);
    }
  });

  it("are the statements of a transaction inside it", async () => {
    await db.transaction(async (tx) => expect(shortDb(tx)).toBe(tx));
  });
});
