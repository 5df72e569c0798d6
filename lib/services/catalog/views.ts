// Product views, counted outside the request: a page view or an API detail read only appends to an
// in-memory buffer; a flush writes the buffered views in one transaction (the per-minute counts of
// product_view_counts upserted, one UPDATE of the counters) every second, at 500 views, and at shutdown. A read
// stays a read, and a burst of views on one product is one counter update instead of one each.
// Within the flush interval the views of another instance are not yet in its counters (contract
// 9.3: lists are fresh within one second); this instance adds its own pending ones to what it shows.
import { sql } from "drizzle-orm";
import { getDb, type Db } from "@/lib/db/client";
import { uncounted } from "@/lib/db/query-count";
import { products, productViewCounts } from "@/lib/db/schema";

export type View = {
  productId: string;
  sellerId: string;
  at: Date;
};

const FLUSH_MS = 1000;
const FLUSH_AT = 500;

/** A view as buffered: its time as performance.now() (Next wraps `Date` to watch prerenders, a cost per hit), dated at the flush. */
type Pending = Omit<View, "at"> & { atMs: number };
type Buffer = {
  pending: Pending[];
  flushing: Pending[];
  timer: NodeJS.Timeout | null;
  running: Promise<void> | null;
};
const KEY = Symbol.for("expo-trade.view-buffer");
// Next loads this module twice (server.ts and the page bundle): one buffer per process.
const buffer = (): Buffer =>
  ((globalThis as typeof globalThis & { [KEY]?: Buffer })[KEY] ??= {
    pending: [],
    flushing: [],
    timer: null,
    running: null,
  });

/** Counts one view (the caller decides who counts: never a store viewing its own product). */
export function recordView(view: Omit<View, "at">): void {
  const b = buffer();
  b.pending.push({ ...view, atMs: performance.now() });
  if (b.pending.length >= FLUSH_AT) void uncounted(flushViews);
  else b.timer ??= later();
}

// Unref'd: the server's shutdown flushes explicitly; a timer must not hold a process open.
// Shared work, outside the request that happens to schedule it (DEBUG_QUERY_COUNT).
const later = () => uncounted(() => setTimeout(() => void flushViews(), FLUSH_MS).unref());

/** Views of this product this process has counted but not yet written. */
export function pendingViews(productId: string): number {
  const b = buffer();
  let n = 0;
  for (const v of b.pending) if (v.productId === productId) n++;
  for (const v of b.flushing) if (v.productId === productId) n++;
  return n;
}

/** Writes every buffered view; resolves when they are committed (shutdown awaits it). */
export async function flushViews(): Promise<void> {
  const b = buffer();
  // One flush at a time, so two batches never race on the same counters' row locks.
  while (b.running) await b.running;
  if (b.timer) clearTimeout(b.timer);
  b.timer = null;
  if (b.pending.length === 0) return;
  b.flushing = b.pending;
  b.pending = [];
  const db = await getDb();
  // Once more on failure: two instances' batches may deadlock on the same counters (PostgreSQL
  // aborts one of them), and a retry then finds the rows free.
  const wall = Date.now() - performance.now();
  const views = b.flushing.map(({ atMs, ...v }): View => ({ ...v, at: new Date(wall + atMs) }));
  b.running = writeViews(db, views)
    .catch(() => writeViews(db, views))
    .catch((err: unknown) => console.error(`writing ${b.flushing.length} product views failed`, err))
    .finally(() => {
      b.flushing = [];
      b.running = null;
      if (b.pending.length > 0) b.timer ??= later();
    });
  await b.running;
}

/**
 * One flush: the views added to their products' per-minute counts and the products' counters bumped, in one
 * transaction. The counter is in no index and products keeps room on its pages (migration 0024), so a bump
 * stays on the row's page. Rows are written in key order, so two instances' flushes take their locks in the
 * same order.
 */
export async function writeViews(db: Db, views: View[]): Promise<void> {
  const perMinute = new Map<string, { product_id: string; seller_id: string; minute: string; n: number }>();
  const counts = new Map<string, number>();
  for (const v of views) {
    counts.set(v.productId, (counts.get(v.productId) ?? 0) + 1);
    const minute = new Date(Math.floor(v.at.getTime() / 60_000) * 60_000).toISOString();
    const key = `${v.productId}|${minute}`;
    const row = perMinute.get(key);
    if (row) row.n++;
    else perMinute.set(key, { product_id: v.productId, seller_id: v.sellerId, minute, n: 1 });
  }
  // Each list as one json parameter: bound values per view were thousands of parameters for Drizzle to
  // build and the driver to encode, a tenth of a cached page's cost under load.
  const rows = JSON.stringify([...perMinute].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, r]) => r));
  const bumps = JSON.stringify([...counts].sort(([a], [b]) => (a < b ? -1 : 1)).map(([id, n]) => ({ id, n })));
  await db.transaction(async (tx) => {
    // A product deleted with its store since the view (a hard delete) has nothing left to count.
    await tx.execute(sql`insert into ${productViewCounts} (product_id, seller_id, minute, views)
      select v.product_id, v.seller_id, v.minute, v.n
      from json_to_recordset(${rows}::json) as v(product_id text, seller_id text, minute timestamptz, n int)
      where exists (select 1 from ${products} p where p.id = v.product_id)
      on conflict (product_id, minute) do update set views = ${productViewCounts}.views + excluded.views`);
    await tx.execute(sql`update ${products} set view_count = ${products.viewCount} + v.n
      from json_to_recordset(${bumps}::json) as v(id text, n int) where ${products.id} = v.id`);
  });
}
