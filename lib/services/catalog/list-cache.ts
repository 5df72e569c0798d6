// Product lists and searches cached per process, valid exactly while the catalog's version stays
// the same (issue #6: "caching only where invalidation is exact"). Every transaction that changes
// what a list can show bumps `catalog_version` at its commit (triggers of migration 0006), so a
// request reads the version first and serves a stored answer only for that version; an answer
// computed after reading version v shows at least everything committed up to v. The live view
// counters are read with the version in the same statement (counting a view does not bump it).
// The entries live on globalThis (Next loads modules twice) in an LRU bounded by SEARCH_CACHE_MB;
// every instance has its own, all read the one version, so several instances stay exact.
import { inArray, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { catalogVersion, products } from "@/lib/db/schema";
import { env } from "@/lib/env";

type Listed = { id: string; viewCount: number };
type Page<P extends Listed> = { products: P[] };
type Entry = { version: string; value: Page<Listed>; bytes: number };
type Cache = { entries: Map<string, Entry>; bytes: number; hits: number; misses: number };

const KEY = Symbol.for("expo-trade.list-cache");
const cache = (): Cache => ((globalThis as typeof globalThis & { [KEY]?: Cache })[KEY] ??= { entries: new Map(), bytes: 0, hits: 0, misses: 0 });

export function listCacheStats() {
  const c = cache();
  return { entries: c.entries.size, bytes: c.bytes, hits: c.hits, misses: c.misses };
}

async function currentVersion(db: Db): Promise<string> {
  const [row] = await db.select({ v: sql<string>`${catalogVersion.version}::text` }).from(catalogVersion).where(sql`${catalogVersion.id} = 1`);
  return row?.v ?? "0";
}

/** The version and the live view counters of `ids`, in one statement. */
async function versionAndCounts(db: Db, ids: string[]): Promise<{ version: string; counts: Map<string, number> }> {
  if (ids.length === 0) return { version: await currentVersion(db), counts: new Map() };
  const rows = await db
    .select({ id: products.id, viewCount: products.viewCount, version: sql<string>`(select version::text from ${catalogVersion} where id = 1)` })
    .from(products)
    .where(inArray(products.id, ids));
  return { version: rows[0]?.version ?? (await currentVersion(db)), counts: new Map(rows.map((r) => [r.id, r.viewCount])) };
}

/**
 * `compute()`'s answer for `key`, from the cache while the catalog is unchanged. `key` must name
 * everything the answer depends on besides the catalog (the query, the locale, the caller's view).
 */
export async function cachedList<P extends Listed, T extends Page<P>>(db: Db, key: string, compute: () => Promise<T>): Promise<T> {
  const limitBytes = env().SEARCH_CACHE_MB * 1024 * 1024;
  if (limitBytes === 0) return compute();
  const c = cache();
  const entry = c.entries.get(key);
  if (entry) {
    const { version, counts } = await versionAndCounts(db, entry.value.products.map((p) => p.id));
    if (version === entry.version) {
      c.hits++;
      // Most recently used last.
      c.entries.delete(key);
      c.entries.set(key, entry);
      const value = entry.value as T;
      return { ...value, products: value.products.map((p) => ({ ...p, viewCount: counts.get(p.id) ?? p.viewCount })) };
    }
    forget(c, key);
  }
  c.misses++;
  // Read before computing: the answer then holds everything committed up to this version.
  const version = await currentVersion(db);
  const value = await compute();
  const bytes = JSON.stringify(value).length * 2;
  if (bytes <= limitBytes / 8) {
    forget(c, key);
    c.entries.set(key, { version, value, bytes });
    c.bytes += bytes;
    for (const [k] of c.entries) {
      if (c.bytes <= limitBytes) break;
      forget(c, k);
    }
  }
  return value;
}

function forget(c: Cache, key: string) {
  const e = c.entries.get(key);
  if (!e) return;
  c.entries.delete(key);
  c.bytes -= e.bytes;
}
