// A database of the test's own for service-level tests: the shared PostgreSQL when DATABASE_URL is
// set, else a fresh in-memory PGlite, both migrated with the real migrations.
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import postgres from "postgres";
import { drizzleFor, type Db, type DbHandle } from "@/lib/db/client";
import { migrateHandle } from "@/lib/db/migrate";

export async function testDb(): Promise<{ db: Db; close: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  let handle: DbHandle;
  if (url) {
    handle = { kind: "postgres", client: postgres(url, { max: 4, onnotice: () => {} }), url };
  } else {
    const client = await PGlite.create({ extensions: { pg_trgm } });
    handle = { kind: "pglite", client, dir: "memory://", lock: { file: "", release: () => {} } };
  }
  await migrateHandle(handle);
  return {
    db: drizzleFor(handle),
    close: async () => {
      if (handle.kind === "pglite") await handle.client.close();
      else await handle.client.end();
    },
  };
}
