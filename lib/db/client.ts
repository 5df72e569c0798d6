// The database: PGlite (embedded PostgreSQL, default) or PostgreSQL via postgres.js (DATABASE_URL).
// The raw client lives on globalThis so it exists once per process even though Next loads this
// module twice (server.ts and the bundled route handlers each get a copy); each copy wraps its
// own Drizzle instance around the shared client.
import type { PGlite } from "@electric-sql/pglite";
import type { SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { Logger } from "drizzle-orm/logger";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import type { Sql } from "postgres";
import { env } from "@/lib/env";
import { applicationName } from "@/lib/instance";
import * as schema from "./schema";
import { acquireDirectoryLock, type DirectoryLock } from "./lock";
import { onPageFenceNotice, PAGE_FENCE_RELEASE } from "./page-fence";
import { openPgliteStore } from "./pglite-store";

import { queryCountLogger } from "./query-count";

export type Schema = typeof schema;
/** A database or a transaction: every query function takes one of these. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/**
 * `short`: a few connections of the process's own PostgreSQL handle for short statements (shortDb);
 * `plans`: connections that start with a search plan's settings (plannedDb).
 */
export type DbHandle =
  | { kind: "pglite"; client: PGlite; lock: DirectoryLock; dir: string }
  | { kind: "postgres"; client: Sql; url: string; short?: Sql; plans?: Record<SearchPlan, Sql> };

/**
 * How PostgreSQL should find the matches of a text query, as settings a connection starts with
 * (lib/services/catalog/search-sql.ts says when each is chosen and why).
 */
export const PLAN_SETTINGS = {
  /*
   * work_mem: the memory a bitmap of a text query's matches may take before it goes lossy. Past `work_mem` (4 MB by
   * default, about 60,000 table pages) PostgreSQL keeps only the pages of the matches, not the rows, and
   * then rechecks every row on those pages, reading each row's TOASTed `tokens` again: at 1,000,000
   * products the whole-word floor of "lamp" read 61,000 blocks in 283 ms that way, 7,400 in 70 ms with
   * the bitmap kept exact (docs/decisions.md). A bitmap takes about 70 bytes a table page holding a
   * match and only what it needs: 64 MB keeps one exact to about 900,000 pages (4,000,000 products).
   */
  bitmap: { enable_seqscan: "off", enable_indexscan: "off", work_mem: "64MB" },
  walk: { enable_seqscan: "off", enable_bitmapscan: "off" },
} as const;
export type SearchPlan = keyof typeof PLAN_SETTINGS;

const KEY = Symbol.for("expo-trade.db");
type Holder = { handle?: Promise<DbHandle>; closing?: Promise<void> };
const holder = (): Holder => {
  const g = globalThis as typeof globalThis & { [KEY]?: Holder };
  return (g[KEY] ??= {});
};

const wrapped = new WeakMap<object, Db>();
const shortOf = new WeakMap<Db, Db>();
const plansOf = new WeakMap<Db, Record<SearchPlan, Db>>();
/** The PGlite client behind a Drizzle instance (one process holds its directory: no other instance shares it). */
const pgliteOf = new WeakMap<Db, object>();

/** The process's database handle, opened on first use. */
export function dbHandle(): Promise<DbHandle> {
  const h = holder();
  h.handle ??= openHandle().catch((err: unknown) => {
    h.handle = undefined;
    throw err;
  });
  return h.handle;
}

export async function getDb(): Promise<Db> {
  return drizzleFor(await dbHandle());
}

/** The Drizzle instance of a client (one per client); `logger`: a new one that logs each statement there. */
export function drizzleFor(handle: DbHandle, logger?: Logger): Db {
  const make = (log: Logger | undefined) =>
    (handle.kind === "pglite"
      ? drizzlePglite(handle.client, { schema, logger: log })
      : drizzlePostgres(handle.client, { schema, logger: log })) as unknown as Db;
  if (logger) return make(logger);
  let db = wrapped.get(handle.client);
  if (!db) {
    wrapped.set(handle.client, (db = make(queryCountLogger())));
    const pg = (client: Sql) => drizzlePostgres(client, { schema, logger: queryCountLogger() }) as unknown as Db;
    if (handle.kind === "pglite") pgliteOf.set(db, handle.client);
    if (handle.kind === "postgres" && handle.short) shortOf.set(db, pg(handle.short));
    if (handle.kind === "postgres" && handle.plans) plansOf.set(db, { bitmap: pg(handle.plans.bitmap), walk: pg(handle.plans.walk) });
  }
  return db;
}

/**
 * The embedded database `db` runs on, when it is one (PGlite: this process alone opens it, so state kept in memory
 * here is seen by every request that reads it); null for PostgreSQL, a transaction, or another Drizzle instance.
 * The same object for every Drizzle instance of that client (Next loads this module twice).
 */
export function embeddedOf(db: Db): object | null {
  return pgliteOf.get(db) ?? null;
}

/**
 * Connections that run a search with `plan`'s settings from their start (PostgreSQL with
 * DATABASE_SEARCH_POOL_MAX > 0), so the search is one statement; null elsewhere (PGlite, a
 * transaction, a test's own database): there the caller sets them in a transaction of its own.
 */
export function plannedDb(db: Db, plan: SearchPlan): Db | null {
  return plansOf.get(db)?.[plan] ?? null;
}

/**
 * Where the short statements every request makes go (the rate counter, the catalog feed's poll, the view
 * counters a cached list shows, a product by id): on PostgreSQL, a few connections of their own, so they
 * never queue behind a burst of search transactions holding the main pool (issue #12, scenario 8: hits
 * and product pages waited as long as the misses beside them). `db` itself anywhere else: PGlite (one
 * connection), a transaction, a test's own database.
 */
export function shortDb(db: Db): Db {
  return shortOf.get(db) ?? db;
}

async function openHandle(): Promise<DbHandle> {
  const e = env();
  if (e.DATABASE_URL) {
    const { default: postgres } = await import("postgres");
    // A write waiting for the page fence says so with a notice on its connection (lib/db/page-fence.ts):
    // this instance lets go, and tells the other holders on the short pool.
    let release = () => {};
    const open = (max: number, settings: Record<string, string> = {}) =>
      postgres(e.DATABASE_URL!, {
        max,
        connect_timeout: 5,
        onnotice: (notice) => onPageFenceNotice(String(notice.message ?? ""), release),
        // Names this instance to the others (lib/instance.ts); any other parameter of the startup
        // message is a setting the session starts with.
        connection: { application_name: applicationName(), ...settings },
      });
    const n = e.DATABASE_SEARCH_POOL_MAX;
    const short = open(e.DATABASE_SHORT_POOL_MAX);
    release = () => void short.unsafe(PAGE_FENCE_RELEASE).catch(() => {});
    return {
      kind: "postgres",
      client: open(e.DATABASE_POOL_MAX),
      short,
      ...(n > 0 ? { plans: { bitmap: open(n, PLAN_SETTINGS.bitmap), walk: open(n, PLAN_SETTINGS.walk) } } : {}),
      url: e.DATABASE_URL,
    };
  }
  return openPglite(e.PGLITE_DIR);
}

export async function openPglite(dir: string): Promise<DbHandle & { kind: "pglite" }> {
  const lock = acquireDirectoryLock(dir);
  try {
    const client = await openPgliteStore(dir, { fsync: env().PGLITE_FSYNC });
    return { kind: "pglite", client, lock, dir };
  } catch (err) {
    lock.release();
    throw err;
  }
}

/** Close the process's database (graceful shutdown). Safe to call twice. */
export function closeDatabase(): Promise<void> {
  const h = holder();
  if (!h.handle) return Promise.resolve();
  h.closing ??= (async () => {
    const handle = await h.handle!.catch(() => undefined);
    h.handle = undefined;
    if (!handle) return;
    if (handle.kind === "pglite") {
      await handle.client.close();
      handle.lock.release();
    } else {
      const pools = [handle.client, handle.short, ...Object.values(handle.plans ?? {})];
      await Promise.all(pools.map((pool) => pool?.end({ timeout: 5 })));
    }
  })().finally(() => {
    h.closing = undefined;
  });
  return h.closing;
}

/** Convert a count or bigint as either driver returns it (number, bigint or string). */
export function toNumber(value: unknown): number {
  if (typeof value === "number") return value;
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "string") return Number(value);
  return 0;
}

/**
 * The rows of a hand-written statement, whichever driver ran it (postgres.js answers an array,
 * PGlite an object with `rows`). Arrays and json come back parsed from both; numbers of type
 * int8/numeric do not (toNumber).
 */
export async function queryRows<T>(db: Db, statement: SQL): Promise<T[]> {
  const result = (await db.execute(statement)) as unknown as T[] | { rows: T[] };
  return Array.isArray(result) ? result : result.rows;
}
