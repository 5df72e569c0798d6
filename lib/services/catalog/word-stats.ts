// Which search terms are common enough for the floor (search-sql.ts wordFloorQuery) to reach the
// count cap: PostgreSQL's own statistics of the token and n-gram columns (the most common elements
// ANALYZE keeps, with the share of rows holding each), read at most once a minute per process.
// A plan hint only: the answer is the same whichever statements compute it. A word the statistics
// do not list (most words) goes straight to counting its matches, with no statement spent on a floor
// it would not reach. PGlite has no autovacuum to gather those statistics: when they are older than
// the table (never gathered, or it has grown by a fifth since), this gathers them (ANALYZE) in the
// background, on either engine.
import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { uncounted } from "@/lib/db/query-count";
import { sqlRows } from "@/lib/db/rows";
import type { FloorTerm } from "./search-sql";

const REFRESH_MS = 60_000;
/** The statistics are gathered again once the table has this many times the pages it had then. */
const GROWTH = 1.2;
/** Asked for only when the estimate clears the cap by this much (the statistics are a sample). */
const HEADROOM = 1.2;

type WordStats = { at: number; share: Record<FloorTerm["column"], Map<string, number>>; rows: number; refreshing: Promise<void> | null };
const KEY = Symbol.for("expo-trade.word-stats");
const state = () =>
  ((globalThis as typeof globalThis & { [KEY]?: WordStats })[KEY] ??= { at: 0, share: { tokens: new Map(), cjk_grams: new Map() }, rows: 0, refreshing: null });

async function refresh(db: Db, s: WordStats, gather = true) {
  const rows = await sqlRows<{ column: FloorTerm["column"]; elems: string[] | null; freqs: number[] | null; rows: number | null }>(
    db,
    sql`select s.attname::text as column, s.most_common_elems::text::text[] as elems, s.most_common_elem_freqs as freqs,
          (select c.reltuples from pg_class c where c.oid = 'products'::regclass)::float8 as rows
        from pg_stats s where s.schemaname = current_schema() and s.tablename = 'products' and s.attname in ('tokens', 'cjk_grams')`,
  );
  // most_common_elem_freqs ends with three summary figures after one share per element.
  const shares = (column: FloorTerm["column"]) => {
    const row = rows.find((r) => r.column === column);
    return new Map((row?.elems ?? []).map((w, i) => [w, Number(row?.freqs?.[i] ?? 0)]));
  };
  s.share = { tokens: shares("tokens"), cjk_grams: shares("cjk_grams") };
  s.rows = Math.max(0, Number(rows[0]?.rows ?? 0));
  s.at = Date.now();
  // Outside the request (ANALYZE holds PGlite's one connection for a second or two at 100k products),
  // then read again: at most once a refresh.
  if (gather)
    void uncounted(async () => {
      if (await gatherIfStale(db)) await refresh(db, s, false);
    }).catch(() => {});
}

/** ANALYZE of the products when their statistics are older than the table; true when it ran. */
export async function gatherIfStale(db: Db): Promise<boolean> {
  const [t] = await sqlRows<{ stale: boolean }>(
    db,
    sql`select c.reltuples < 0 or pg_relation_size(c.oid) / current_setting('block_size')::int > c.relpages * ${GROWTH}::float8 + 8 as stale
        from pg_class c where c.oid = 'products'::regclass`,
  );
  if (!t?.stale) return false;
  await db.execute(sql`analyze products`);
  return true;
}

/**
 * Whether about `cap` products or more likely hold all of `terms` (shares multiplied,
 * as if independent). Reads the statistics the first time; later, a stale copy answers while a
 * fresh one is read.
 */
export async function likelyHolds(db: Db, terms: FloorTerm[], cap: number): Promise<boolean> {
  const s = state();
  // Statistics that cannot be read (none yet, no privilege) leave every word uncommon: no floor is asked.
  // Shared work: not counted against the request that happens to start it (DEBUG_QUERY_COUNT).
  const read = () =>
    (s.refreshing ??= uncounted(() => refresh(db, s))
      .catch(() => void (s.at = Date.now()))
      .finally(() => (s.refreshing = null)));
  if (!s.at) await read();
  else if (Date.now() - s.at > REFRESH_MS) void read();
  const estimate = terms.reduce((n, t) => n * (s.share[t.column].get(t.value) ?? 0), s.rows);
  return terms.length > 0 && estimate >= cap * HEADROOM;
}
