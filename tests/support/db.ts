// A database of the test's own for service-level tests: the shared PostgreSQL when DATABASE_URL is
// set, else a fresh in-memory PGlite, both migrated with the real migrations (PGlite: loaded from a copy migrated
// once per run).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import postgres from "postgres";
import { drizzleFor, type Db, type DbHandle } from "@/lib/db/client";
import { flushRateCounts } from "@/lib/api/rate-limit";
import { migrateHandle } from "@/lib/db/migrate";
import { categories, sellerProfiles, users } from "@/lib/db/schema";

/** A tarball of an empty in-memory PGlite store with every migration applied, made once per integration run. */
export const PGLITE_MIGRATED = "EXPO_TEST_PGLITE_MIGRATED";

/** Writes that tarball to `file`: a new store, migrated, dumped. */
export async function writeMigratedPglite(file: string): Promise<void> {
  const client = await PGlite.create({ extensions: { pg_trgm } });
  try {
    await migrateHandle({ kind: "pglite", client, dir: "memory://", lock: { file: "", release: () => {} } });
    writeFileSync(file, Buffer.from(await (await client.dumpDataDir("none")).arrayBuffer()));
  } finally {
    await client.close();
  }
}

/** `onQuery`: sees the text (and parameters) of every statement the returned `db` runs (a test asking which ones ran). */
export async function testDb(opts: { onQuery?: (statement: string, params: unknown[]) => void } = {}): Promise<{ db: Db; close: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  let handle: DbHandle;
  let dropDatabase: (() => Promise<void>) | undefined;
  if (url) {
    // A database of its own per test file, so bulk rows never leak into the API tests' database.
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    const name = `t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    await admin.unsafe(`create database ${name}`);
    const own = new URL(url);
    own.pathname = `/${name}`;
    handle = { kind: "postgres", client: postgres(own.toString(), { max: 4, onnotice: () => {} }), url: own.toString() };
    dropDatabase = async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    };
  } else {
    // From the run's migrated copy when there is one (tests/support/global-setup.ts): creating a store (initdb in
    // WebAssembly) and migrating it took ~5.4 s here, loading the copy ~1.5 s.
    const dump = process.env[PGLITE_MIGRATED];
    const loadDataDir = dump && existsSync(dump) ? new Blob([readFileSync(dump)]) : undefined;
    const client = await PGlite.create({ extensions: { pg_trgm }, loadDataDir });
    handle = { kind: "pglite", client, dir: "memory://", lock: { file: "", release: () => {} } };
  }
  await migrateHandle(handle);
  return {
    db: drizzleFor(handle, opts.onQuery && { logQuery: opts.onQuery }),
    close: async () => {
      if (handle.kind === "pglite") {
        // Rate counts kept in memory for this database are written first (lib/api/rate-limit.ts), as at shutdown.
        await flushRateCounts();
        await handle.client.close();
      } else {
        await handle.client.end();
        await dropDatabase?.();
      }
    },
  };
}

/** A store (its user and seller profile) and a category of its own, for tests that write products straight to a test database. */
export async function storeWithCategory(db: Db, name: string): Promise<{ seller: string; category: string }> {
  const tag = `${name.toLowerCase()}-${Date.now().toString(36)}`;
  const [u] = await db
    .insert(users)
    .values({ email: `${tag}@example.test`, username: tag.replace(/-/g, "_"), passwordHash: "x", role: "SELLER" })
    .returning();
  const [s] = await db.insert(sellerProfiles).values({ userId: u!.id, companyName: name }).returning();
  const [c] = await db
    .insert(categories)
    .values({ slug: tag, names: { en: name } })
    .returning();
  return { seller: s!.id, category: c!.id };
}
