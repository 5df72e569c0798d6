// Stable ranges for the child sitemaps. Each kind's rows (all of them: hidden, unpublished and
// soft-deleted rows included, so hiding or deleting never moves a boundary) are cut by primary key
// into chunks of `size` rows: chunk k holds the ids from the one at rank k*size up to the next
// chunk's first id. Ids are UUID v7 (time-ordered) and rows are never hard-deleted by the app, so
// new rows append to the last chunk and a full chunk's boundaries never move again; a change to
// one product changes only its own chunk. The boundaries are a function of the data, so every
// instance computes the same ones; each keeps them on globalThis, extends them when the last chunk
// overflows, and re-derives them from a chunk whose row count says they drifted (a row inserted
// out of order, or deleted outside the app).
import { sql, type SQL } from "drizzle-orm";
import { toNumber, type Db } from "@/lib/db/client";
import { sqlRows } from "@/lib/db/rows";
import { booths, exhibitions, products, sellerProfiles } from "@/lib/db/schema";

export const KINDS = ["exhibitions", "booths", "stores", "products"] as const;
export type Kind = (typeof KINDS)[number];

type KindDef = {
  table: SQL;
  id: SQL;
  updatedAt: SQL;
  createdAt: SQL;
  live: SQL;
  segment: SQL;
  prefix: string;
};
const def = (t: typeof exhibitions | typeof booths | typeof sellerProfiles | typeof products, live: SQL, segment: SQL, prefix: string): KindDef => ({
  table: sql`${t}`,
  id: sql`${t.id}`,
  updatedAt: sql`${t.updatedAt}`,
  createdAt: sql`${t.createdAt}`,
  live,
  segment,
  prefix,
});
const DEFS: Record<Kind, KindDef> = {
  exhibitions: def(exhibitions, sql`true`, sql`${exhibitions.slug}`, "/exhibitions/"),
  booths: def(booths, sql`${booths.isPublished}`, sql`${booths.id}`, "/booths/"),
  stores: def(sellerProfiles, sql`${sellerProfiles.isPublic}`, sql`${sellerProfiles.id}`, "/stores/"),
  products: def(products, sql`${products.deletedAt} is null and not ${products.isHidden}`, sql`${products.id}`, "/products/"),
};
export const pathPrefix = (kind: Kind) => DEFS[kind].prefix;

/** A chunk's first id and the creation time (ms) of that row; chunk 0 starts below every id. */
type Start = { id: string; at: number };
type KindState = { starts: Start[]; firstAt: number; lock: Promise<unknown> };
type State = { size: number; kinds: Record<Kind, KindState> };

const KEY = Symbol.for("expo-trade.sitemap-chunks");
type G = typeof globalThis & { [KEY]?: State };

function state(size: number): State {
  const g = globalThis as G;
  if (!g[KEY] || g[KEY].size !== size) {
    const fresh = (): KindState => ({
      starts: [{ id: "", at: 0 }],
      firstAt: 0,
      lock: Promise.resolve(),
    });
    g[KEY] = {
      size,
      kinds: {
        exhibitions: fresh(),
        booths: fresh(),
        stores: fresh(),
        products: fresh(),
      },
    };
  }
  return g[KEY];
}

const epochMs = (col: SQL) => sql`(extract(epoch from ${col}) * 1000)::bigint`;
const epochUs = (col: SQL) => sql`(extract(epoch from ${col}) * 1000000)::bigint`;

/** Re-derive the boundaries after chunk `from` (walking the primary key, `size` entries a step). */
function rederive(db: Db, size: number, kind: Kind, from: number): Promise<void> {
  const s = state(size).kinds[kind];
  const d = DEFS[kind];
  const run = s.lock.then(async () => {
    s.starts.length = Math.min(s.starts.length, from + 1);
    for (;;) {
      const last = s.starts[s.starts.length - 1]!;
      const [next] = await sqlRows<{ id: string; at: unknown }>(
        db,
        sql`select ${d.id} as id, ${epochMs(d.createdAt)} as at from ${d.table} where ${d.id} >= ${last.id} order by ${d.id} offset ${size} limit 1`,
      );
      if (!next) return;
      s.starts.push({ id: next.id, at: toNumber(next.at) });
      // PGlite runs each query on the event loop: let other work in between.
      await new Promise((r) => setImmediate(r));
    }
  });
  s.lock = run.catch(() => {});
  return run;
}

export type Range = { kind: Kind; k: number; lo: string; hi: string | null };
const range = (size: number, kind: Kind, k: number): Range | null => {
  const starts = state(size).kinds[kind].starts;
  if (k >= starts.length) return null;
  return { kind, k, lo: starts[k]!.id, hi: starts[k + 1]?.id ?? null };
};
const inRange = (d: KindDef, r: Range) => (r.hi === null ? sql`${d.id} >= ${r.lo}` : sql`${d.id} >= ${r.lo} and ${d.id} < ${r.hi}`);

export type Layout = { chunks: Record<Kind, number>; lastModified: number };

/**
 * How many chunks each kind has (0 for an empty table), with one statement when nothing moved: per
 * kind, the rows of its last chunk counted up to size + 1 (an index range scan), and when its
 * first row was created. `lastModified` is when the list of chunks last grew.
 */
export async function layout(db: Db, size: number): Promise<Layout> {
  for (let attempt = 0; ; attempt++) {
    const st = state(size);
    const parts = KINDS.map((kind) => {
      const d = DEFS[kind];
      const last = st.kinds[kind].starts.at(-1)!;
      return sql`select ${kind}::text as kind, (select count(*) from (select 1 from ${d.table} where ${d.id} >= ${last.id} limit ${size + 1}) x) as n, (select ${epochMs(d.createdAt)} from ${d.table} order by ${d.id} limit 1) as first_at`;
    });
    const found = await sqlRows<{ kind: Kind; n: unknown; first_at: unknown }>(db, sql.join(parts, sql` union all `));
    const overflowing = found.filter((r) => toNumber(r.n) > size);
    if (overflowing.length && attempt < 3) {
      for (const r of overflowing) await rederive(db, size, r.kind, st.kinds[r.kind].starts.length - 1);
      continue;
    }
    const chunks = {} as Record<Kind, number>;
    let lastModified = 0;
    for (const r of found) {
      const s = st.kinds[r.kind];
      s.firstAt = toNumber(r.first_at);
      chunks[r.kind] = s.starts.length === 1 && toNumber(r.n) === 0 ? 0 : s.starts.length;
      lastModified = Math.max(lastModified, s.firstAt, ...s.starts.map((x) => x.at));
    }
    return { chunks, lastModified };
  }
}

/** A chunk's version: its row count and latest update, one aggregate over its id range. */
export type ChunkKey = { range: Range; count: number; maxUs: number };

export async function chunkKey(db: Db, size: number, kind: Kind, k: number): Promise<ChunkKey | null> {
  const r = range(size, kind, k);
  if (!r) return null;
  const d = DEFS[kind];
  const [row] = await sqlRows<{ n: unknown; us: unknown }>(
    db,
    sql`select count(*) as n, coalesce(max(${epochUs(d.updatedAt)}), 0) as us from ${d.table} where ${inRange(d, r)}`,
  );
  return { range: r, count: toNumber(row?.n), maxUs: toNumber(row?.us) };
}

/** A chunk's rows are as the boundaries say: a full chunk, or a last one that did not overflow. */
export const consistent = (size: number, key: ChunkKey) => (key.range.hi === null ? key.count <= size : key.count === size);

export type ChunkRow = { segment: string; updatedMs: number; live: boolean };

/**
 * The chunk's rows in id order, read in one statement together with the key they make. A chunk
 * whose count disagrees with its boundaries has them re-derived first (null: no such chunk).
 */
export async function chunkRows(db: Db, size: number, kind: Kind, k: number): Promise<{ key: ChunkKey; rows: ChunkRow[] } | null> {
  const d = DEFS[kind];
  for (let attempt = 0; ; attempt++) {
    const r = range(size, kind, k);
    if (!r) return null;
    const found = await sqlRows<{ segment: string; us: unknown; live: boolean }>(
      db,
      sql`select ${d.segment} as segment, ${epochUs(d.updatedAt)} as us, (${d.live}) as live from ${d.table} where ${inRange(d, r)} order by ${d.id} limit ${size + 1}`,
    );
    const key: ChunkKey = {
      range: r,
      count: found.length,
      maxUs: found.reduce((m, x) => Math.max(m, toNumber(x.us)), 0),
    };
    if (!consistent(size, key) && attempt < 3) {
      await rederive(db, size, kind, k);
      continue;
    }
    // Never more than `size` rows, whatever happened meanwhile (the protocol's limit holds).
    const kept = found.slice(0, size).map((x) => ({
      segment: x.segment,
      updatedMs: Math.floor(toNumber(x.us) / 1000),
      live: x.live === true || (x.live as unknown) === "t",
    }));
    return { key, rows: kept };
  }
}
