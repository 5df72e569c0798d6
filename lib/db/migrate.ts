// Apply drizzle-kit's migrations from ./drizzle, then seed an empty database. On PostgreSQL an
// advisory lock makes concurrent instances take turns, so only one of them migrates and seeds.
import path from "node:path";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { env } from "@/lib/env";
import { dbHandle, drizzleFor, type Db, type DbHandle } from "./client";
import { seedDatabase, type SeedOptions } from "./seed";

const MIGRATION_LOCK = 724_113_001;

export function migrationsFolder(): string {
  return path.join(env().EXPO_TRADE_ROOT ?? process.cwd(), "drizzle");
}

export async function migrateHandle(handle: DbHandle): Promise<void> {
  const migrationsFolderPath = migrationsFolder();
  if (handle.kind === "pglite") {
    await migratePglite(drizzlePglite(handle.client), { migrationsFolder: migrationsFolderPath });
    return;
  }
  await withAdvisoryLock(handle, async () => {
    await migratePostgres(drizzlePostgres(handle.client), { migrationsFolder: migrationsFolderPath });
  });
}

async function withAdvisoryLock(handle: DbHandle & { kind: "postgres" }, fn: () => Promise<void>): Promise<void> {
  const conn = await handle.client.reserve();
  try {
    await conn`select pg_advisory_lock(${MIGRATION_LOCK})`;
    try {
      await fn();
    } finally {
      await conn`select pg_advisory_unlock(${MIGRATION_LOCK})`;
    }
  } finally {
    conn.release();
  }
}

/** Open, migrate and seed: what start-up does before it listens. Returns the ready database. */
export async function prepareDatabase(options: SeedOptions): Promise<Db> {
  const handle = await dbHandle();
  await migrateHandle(handle);
  const db = drizzleFor(handle);
  if (handle.kind === "postgres") {
    await withAdvisoryLock(handle, async () => {
      await seedDatabase(db, options);
    });
  } else {
    await seedDatabase(db, options);
  }
  return db;
}
