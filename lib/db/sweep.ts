// Housekeeping: rows past their use are deleted by the requests that write such rows, about once a
// minute per process and table (any instance may sweep), a bounded batch at a time, so no request
// ever pays for a backlog and no timer runs while nothing is written.
import { sql, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Db } from "./client";
import { sqlRows } from "./rows";

export const SWEEP_MS = 60_000;
/** Most rows one sweep deletes (~10 ms at 5,000 here); a backlog goes in later sweeps. */
export const SWEEP_BATCH = 5_000;

const SWEPT = Symbol.for("expo-trade.sweeps");
/** Whether the sweep `name` is due in this process (at most once per SWEEP_MS); marks it done when it is. */
export function sweepDue(name: string): boolean {
  const g = globalThis as typeof globalThis & { [SWEPT]?: Map<string, number> };
  const last = (g[SWEPT] ??= new Map());
  const now = Date.now();
  if (now - (last.get(name) ?? 0) < SWEEP_MS) return false;
  last.set(name, now);
  return true;
}

/**
 * Delete up to SWEEP_BATCH rows of `table` that satisfy `where` (an index on its column keeps the
 * lookup a range), by their row addresses; returns how many went.
 */
export async function sweepRows(db: Db, table: PgTable, where: SQL): Promise<number> {
  const [row] = await sqlRows<{ n: number }>(
    db,
    sql`
    with gone as (
      delete from ${table} where ctid = any(array(select ctid from ${table} where ${where} limit ${sql.raw(String(SWEEP_BATCH))}))
      returning 1
    )
    select count(*)::int as n from gone`,
  );
  return Number(row?.n ?? 0);
}
