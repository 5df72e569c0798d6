// Searches run under their plan's settings (lib/services/catalog/search-sql.ts planned): on PostgreSQL
// on connections that start with them (lib/db/client.ts PLAN_SETTINGS), one statement a search instead
// of a four-statement transaction; elsewhere (PGlite, a transaction, a test's own database) in a
// transaction that sets them first. Either way they hold for the search and for nothing else.
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { closeDatabase, getDb, type Db } from "@/lib/db/client";
import { sqlRows } from "@/lib/db/rows";
import { planned } from "@/lib/services/catalog/search-sql";
import { testDb } from "../support/db";

type Settings = { seqscan: string; indexscan: string; bitmapscan: string; workMem: string; alone: boolean; backend: number };
const read = async (db: Db): Promise<Settings> =>
  (
    await sqlRows<Settings>(
      db,
      // `alone`: no earlier statement in this transaction (a statement of its own, or the first of one).
      sql`select current_setting('enable_seqscan') as seqscan, current_setting('enable_indexscan') as indexscan,
            current_setting('enable_bitmapscan') as bitmapscan, current_setting('work_mem') as "workMem",
            now() = statement_timestamp() as alone, pg_backend_pid() as backend`,
    )
  )[0]!;

afterAll(() => closeDatabase());

describe("the planner settings of a search", () => {
  it.runIf(process.env.DATABASE_URL)("on PostgreSQL: connections of their own that start with them, one statement a search", async () => {
    const db = await getDb();
    const plain = await read(db);
    expect(plain).toMatchObject({ seqscan: "on", indexscan: "on", bitmapscan: "on", alone: true });
    expect(plain.workMem).not.toBe("64MB");
    const bitmap = await planned(db, "bitmap", read);
    expect(bitmap).toMatchObject({ seqscan: "off", indexscan: "off", bitmapscan: "on", workMem: "64MB", alone: true });
    const walk = await planned(db, "walk", read);
    expect(walk).toMatchObject({ seqscan: "off", indexscan: "on", bitmapscan: "off", workMem: plain.workMem, alone: true });
    expect(new Set([plain.backend, bitmap.backend, walk.backend]).size).toBe(3);
    // The main pool's connections never took them.
    const again = await Promise.all(Array.from({ length: 10 }, () => read(db)));
    for (const s of again) expect(s).toMatchObject({ seqscan: "on", indexscan: "on", bitmapscan: "on", workMem: plain.workMem });
  });

  it("elsewhere: in a transaction that sets them first, and only there", async () => {
    const { db, close } = await testDb();
    try {
      const plain = await read(db);
      expect(plain).toMatchObject({ seqscan: "on", indexscan: "on", bitmapscan: "on" });
      expect(await planned(db, "bitmap", read)).toMatchObject({ seqscan: "off", indexscan: "off", bitmapscan: "on", workMem: "64MB", alone: false });
      expect(await planned(db, "walk", read)).toMatchObject({ seqscan: "off", indexscan: "on", bitmapscan: "off", workMem: plain.workMem, alone: false });
      expect(await read(db)).toMatchObject({ seqscan: "on", indexscan: "on", bitmapscan: "on", workMem: plain.workMem });
    } finally {
      await close();
    }
  });
});
