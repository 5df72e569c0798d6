// Which search words are common enough for the whole-word floor (search-sql.ts wordFloorQuery) to
// reach the count cap: PostgreSQL's own statistics of the token column (the most common elements
// ANALYZE keeps, with the share of rows holding each), read at most once a minute per process.
// A plan hint only: the answer is the same whichever statements compute it. A word the statistics
// do not list (most words) goes straight to counting its matches, with no statement spent on a floor
// it would not reach.
import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { sqlRows } from "@/lib/db/rows";

const REFRESH_MS = 60_000;
/** Asked for only when the estimate clears the cap by this much (the statistics are a sample). */
const HEADROOM = 1.2;

type WordStats = { at: number; share: Map<string, number>; rows: number; refreshing: Promise<void> | null };
const KEY = Symbol.for("expo-trade.word-stats");
const state = () => ((globalThis as typeof globalThis & { [KEY]?: WordStats })[KEY] ??= { at: 0, share: new Map(), rows: 0, refreshing: null });

async function refresh(db: Db, s: WordStats) {
  const [row] = await sqlRows<{ elems: string[] | null; freqs: number[] | null; rows: number | null }>(
    db,
    sql`select s.most_common_elems::text::text[] as elems, s.most_common_elem_freqs as freqs,
          (select c.reltuples from pg_class c where c.oid = 'products'::regclass)::float8 as rows
        from pg_stats s where s.schemaname = current_schema() and s.tablename = 'products' and s.attname = 'tokens'`,
  );
  // most_common_elem_freqs ends with three summary figures after one share per element.
  s.share = new Map((row?.elems ?? []).map((w, i) => [w, Number(row?.freqs?.[i] ?? 0)]));
  s.rows = Math.max(0, Number(row?.rows ?? 0));
  s.at = Date.now();
}

/**
 * Whether about `cap` products or more likely hold all of `words` as whole words (shares multiplied,
 * as if independent). Reads the statistics the first time; later, a stale copy answers while a
 * fresh one is read.
 */
export async function likelyHolds(db: Db, words: string[], cap: number): Promise<boolean> {
  const s = state();
  // Statistics that cannot be read (none yet, no privilege) leave every word uncommon: no floor is asked.
  const read = () =>
    (s.refreshing ??= refresh(db, s)
      .catch(() => void (s.at = Date.now()))
      .finally(() => (s.refreshing = null)));
  if (!s.at) await read();
  else if (Date.now() - s.at > REFRESH_MS) void read();
  const estimate = words.reduce((n, w) => n * (s.share.get(w) ?? 0), s.rows);
  return words.length > 0 && estimate >= cap * HEADROOM;
}
