// Product lists and searches cached per process, valid exactly while the catalog's version stays
// the same (issue #6: "caching only where invalidation is exact"). Every transaction that changes
// what a list can show bumps `catalog_version` at its commit (triggers of migration 0006), so a
// request reads the version first and serves a stored answer only for that version; an answer
// computed after reading version v shows at least everything committed up to v. The live view
// counters are read with the version in the same statement (counting a view does not bump it).
// Answers are kept as their UTF-8 JSON, cut where the view counters go, so a hit is one statement
// and a concatenation (no serializing). The entries live on globalThis (Next loads modules twice)
// in an LRU bounded by SEARCH_CACHE_MB; every instance has its own, all read the one version, so
// several instances stay exact.
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { catalogVersion, products } from "@/lib/db/schema";
import { env } from "@/lib/env";

type Listed = { id: string; viewCount: number };
type Page = { products: Listed[] };
/** The answer's JSON cut around each product's viewCount: segments.length === ids.length + 1. */
type Entry = { version: string; ids: string[]; counts: number[]; segments: Buffer[]; bytes: number };
type Cache = { entries: Map<string, Entry>; bytes: number };

const KEY = Symbol.for("expo-trade.list-cache");
const cache = (): Cache => ((globalThis as typeof globalThis & { [KEY]?: Cache })[KEY] ??= { entries: new Map(), bytes: 0 });
// A placeholder no stored text contains (random per process), where the counters are cut out.
const MARK_VALUE = `vc-${randomBytes(12).toString("hex")}`;
const MARK = JSON.stringify(MARK_VALUE);

// Both statements run on every list request: built and prepared once per database object.
const prepared = new WeakMap<Db, ReturnType<typeof prepare>>();
function prepare(db: Db) {
  return {
    version: db.select({ v: sql<string>`${catalogVersion.version}::text` }).from(catalogVersion).where(sql`${catalogVersion.id} = 1`).prepare("list_cache_version"),
    counts: db
      .select({ id: products.id, viewCount: products.viewCount, version: sql<string>`(select version::text from ${catalogVersion} where id = 1)` })
      .from(products)
      .where(sql`${products.id} = any(${sql.placeholder("ids")}::text[])`)
      .prepare("list_cache_counts"),
  };
}
function statements(db: Db) {
  let s = prepared.get(db);
  if (!s) prepared.set(db, (s = prepare(db)));
  return s;
}

async function currentVersion(db: Db): Promise<string> {
  const [row] = await statements(db).version.execute();
  return row?.v ?? "0";
}

/** The version and the live view counters of `ids`, in one statement. */
async function versionAndCounts(db: Db, ids: string[]): Promise<{ version: string; counts: Map<string, number> }> {
  if (ids.length === 0) return { version: await currentVersion(db), counts: new Map() };
  const rows = await statements(db).counts.execute({ ids });
  return { version: rows[0]?.version ?? (await currentVersion(db)), counts: new Map(rows.map((r) => [r.id, r.viewCount])) };
}

function cut(value: Page): Buffer[] | null {
  const text = JSON.stringify({ ...value, products: value.products.map((p) => ({ ...p, viewCount: MARK_VALUE })) });
  const parts = text.split(MARK);
  return parts.length === value.products.length + 1 ? parts.map((p) => Buffer.from(p, "utf8")) : null;
}

function join(segments: Buffer[], counts: number[]): Buffer {
  const pieces: Buffer[] = [segments[0]!];
  counts.forEach((n, i) => pieces.push(Buffer.from(String(n)), segments[i + 1]!));
  return Buffer.concat(pieces);
}

/**
 * `compute()`'s answer for `key` as UTF-8 JSON, from the cache while the catalog is unchanged.
 * `key` must name everything the answer depends on besides the catalog (query, locale, caller).
 */
export async function cachedJson(db: Db, key: string, compute: () => Promise<Page>): Promise<Buffer> {
  const limitBytes = env().SEARCH_CACHE_MB * 1024 * 1024;
  if (limitBytes === 0) return Buffer.from(JSON.stringify(await compute()), "utf8");
  const c = cache();
  const entry = c.entries.get(key);
  if (entry) {
    const { version, counts } = await versionAndCounts(db, entry.ids);
    if (version === entry.version) {
      // Most recently used last.
      c.entries.delete(key);
      c.entries.set(key, entry);
      return join(
        entry.segments,
        entry.ids.map((id, i) => counts.get(id) ?? entry.counts[i]!),
      );
    }
    forget(c, key);
  }
  // Read before computing: the answer then holds everything committed up to this version.
  const version = await currentVersion(db);
  const value = await compute();
  const segments = cut(value);
  if (!segments) return Buffer.from(JSON.stringify(value), "utf8");
  const ids = value.products.map((p) => p.id);
  const counts = value.products.map((p) => p.viewCount);
  const bytes = segments.reduce((n, s) => n + s.length, 0) + ids.length * 64;
  if (bytes <= limitBytes / 8) {
    forget(c, key);
    c.entries.set(key, { version, ids, counts, segments, bytes });
    c.bytes += bytes;
    for (const [k] of c.entries) {
      if (c.bytes <= limitBytes) break;
      forget(c, k);
    }
  }
  return join(segments, counts);
}

function forget(c: Cache, key: string) {
  const e = c.entries.get(key);
  if (!e) return;
  c.entries.delete(key);
  c.bytes -= e.bytes;
}
