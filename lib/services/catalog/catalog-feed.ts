// The catalog's change feed as one instance sees it (issue #12, contract 9.3): every catalog write
// leaves a row in `catalog_changes` (triggers of migration 0008), and each instance polls that table
// a few times a second, handing every change it has not seen to its caches. No row is shared by two
// writers (the old catalog_version row serialized every commit), and an instance misses nothing and
// takes nothing twice: each poll reads, in one statement, the rows its snapshot sees that the previous
// poll's snapshot did not (`pg_visible_in_snapshot`), and keeps its own snapshot for the next. A row of
// a transaction still running is in neither until it commits; then the next poll reads it.
//
// Freshness: a change committed at time C is unseen only while no poll started after C has ended.
// So an instance may answer from a cache only while its last completed poll started less than
// WINDOW_MS ago (otherwise the request waits for a poll), and a change found by a poll must stop
// being served by the start of the poll before it + WINDOW_MS: lists show a commit within a second.
import { sql } from "drizzle-orm";
import { queryRows, shortDb, type Db } from "@/lib/db/client";
import { uncounted } from "@/lib/db/query-count";
import { categories, type CatalogState } from "@/lib/db/schema";
import { env } from "@/lib/env";

/** Lists show a committed change within this long (contract 9.3 says one second; margin kept). */
export const WINDOW_MS = 900;
const POLL_MS = 200;
/** Polling stops when no list was served for this long; the next request polls first. */
const IDLE_MS = 10_000;
const SWEEP_MS = 60_000;
/** Rows live 10 minutes (the sweep); after a pause this long an instance starts over. */
const STALE_MS = 5 * 60_000;
/** More changes than this in one poll drop every cached answer instead (memory stays bounded). */
const BURST_MAX = 2_000;
/** Changes kept in memory for lists whose computation overlapped their processing. */
const RECENT_MAX = 5_000;

export type CatalogChange = {
  seq: number;
  kind: "product" | "seller" | "booth" | "category" | "all";
  productId: string | null;
  sellerId: string | null;
  before: CatalogState | null;
  after: CatalogState | null;
  /** A cached list this change affects may be served until then (local clock, ms). */
  deadline: number;
  /** The writing transaction's id (xid8, decimal), for telling whether a snapshot already saw it; absent on the feed's own "all" resets. */
  tx?: string | null;
  /** Local order of processing (see changesSince). */
  n: number;
};
export type ChangeListener = (changes: CatalogChange[]) => void;

type CategoryTree = Map<string, { id: string; slug: string; parentId: string | null; names: Record<string, string> }>;
type Feed = {
  db: Db | null;
  /** The last poll's snapshot (`pg_snapshot` text): every change it saw has been handed over. */
  snapshot: string | null;
  lastPollStart: number;
  polling: Promise<void> | null;
  timer: NodeJS.Timeout | null;
  lastUse: number;
  lastSweep: number;
  counter: number;
  recent: CatalogChange[];
  listeners: Map<string, ChangeListener>;
  categories: Promise<CategoryTree> | null;
};

const KEY = Symbol.for("expo-trade.catalog-feed");
function feed(): Feed {
  const g = globalThis as typeof globalThis & { [KEY]?: Feed };
  return (g[KEY] ??= {
    db: null,
    snapshot: null,
    lastPollStart: 0,
    polling: null,
    timer: null,
    lastUse: 0,
    lastSweep: Date.now(),
    counter: 0,
    recent: [],
    listeners: new Map(),
    categories: null,
  });
}

type Row = {
  snap: string;
  seq: number | string | null;
  tx: string;
  kind: CatalogChange["kind"];
  product_id: string | null;
  seller_id: string | null;
  before: CatalogState | null;
  after: CatalogState | null;
};

async function pollOnce(f: Feed, request: Db): Promise<void> {
  // Lists wait for a late poll: it must not queue behind the search statements (shortDb).
  const db = shortDb(request);
  const started = Date.now();
  // Starting over: the first poll (nothing is cached yet, so older changes do not matter) or one after a
  // long pause (the rows since may have been swept: everything cached is dropped instead). It reads no row,
  // only the snapshot the next poll starts from; every list waits for it (none has polled for STALE_MS), so
  // no answer is older than that snapshot.
  const previous = started - f.lastPollStart > STALE_MS ? null : f.snapshot;
  if (previous === null && f.snapshot !== null)
    emit(f, [{ seq: 0, kind: "all", productId: null, sellerId: null, before: null, after: null, deadline: 0, n: ++f.counter }]);
  // One statement, so one snapshot: the rows it sees that the previous poll's did not, and the snapshot
  // itself. The bound on tx uses the index; rows below the previous xmin were all visible then. Rows the
  // previous poll saw are never read again, however long another transaction holds the xmin back (a report,
  // a backup, another database of the cluster): re-reading them once made every poll past a bulk write
  // drop every cached answer.
  const changed = previous
    ? sql`tx >= pg_snapshot_xmin(${previous}::pg_snapshot)::text::bigint and not pg_visible_in_snapshot(tx::text::xid8, ${previous}::pg_snapshot)`
    : sql`false`;
  const rows = await queryRows<Row>(
    db,
    sql`select s.snap, r.* from (select pg_current_snapshot()::text as snap) s left join lateral (
      select seq, tx::text as tx, kind, product_id, seller_id, before, after from catalog_changes where ${changed} order by seq limit ${BURST_MAX + 1}
    ) r on true`,
  );
  const changes = rows.filter((r) => r.seq !== null);
  const deadline = f.lastPollStart + WINDOW_MS;
  f.snapshot = rows[0]!.snap;
  if (changes.length > BURST_MAX) {
    // A bulk change (an import, a re-normalization): everything cached is dropped instead of matching
    // each row. Transactions still running now are read by the next poll when they commit.
    emit(f, [{ seq: 0, kind: "all", productId: null, sellerId: null, before: null, after: null, deadline, n: ++f.counter }]);
  } else if (changes.length) {
    emit(
      f,
      changes.map((r) => ({
        seq: Number(r.seq),
        kind: r.kind,
        productId: r.product_id,
        sellerId: r.seller_id,
        before: r.before,
        after: r.after,
        deadline,
        n: ++f.counter,
        tx: r.tx,
      })),
    );
  }
  f.lastPollStart = started;
  if (started - f.lastSweep > SWEEP_MS) {
    f.lastSweep = started;
    // Any instance may sweep; rows are kept far longer than any poll interval.
    await db.execute(sql`delete from catalog_changes where at < now() - interval '10 minutes'`);
  }
}

/**
 * How long the caches took to take this process's changes (synchronous, on the event loop): total and
 * longest since the reader last reset them (the bench's profiling hook, once a second).
 */
export type FeedStats = { changes: number; ms: number; maxMs: number };
const STATS = Symbol.for("expo-trade.catalog-feed.stats");
function stats(): FeedStats {
  const g = globalThis as typeof globalThis & { [STATS]?: FeedStats };
  return (g[STATS] ??= { changes: 0, ms: 0, maxMs: 0 });
}

function emit(f: Feed, changes: CatalogChange[]) {
  if (changes.some((c) => c.kind === "category" || c.kind === "all")) f.categories = null;
  f.recent.push(...changes);
  if (f.recent.length > RECENT_MAX) f.recent.splice(0, f.recent.length - RECENT_MAX);
  const t0 = performance.now();
  for (const listener of f.listeners.values()) listener(changes);
  const ms = performance.now() - t0;
  const s = stats();
  s.changes += changes.length;
  s.ms += ms;
  if (ms > s.maxMs) s.maxMs = ms;
}

function poll(f: Feed, db: Db): Promise<void> {
  // Shared by every request waiting for it: not any one request's statements.
  f.polling ??= uncounted(() => pollOnce(f, db)).finally(() => {
    f.polling = null;
  });
  return f.polling;
}

function schedule(f: Feed) {
  if (f.timer) return;
  f.timer = setInterval(() => {
    if (Date.now() - f.lastUse > IDLE_MS || !f.db) {
      clearInterval(f.timer!);
      f.timer = null;
      return;
    }
    poll(f, f.db).catch((err: unknown) => console.error("catalog feed: poll failed", err));
  }, POLL_MS);
  f.timer.unref();
}

/**
 * Stops background polling (before the database closes); the next list request starts it again.
 * Resolves when a poll under way has ended (failed or not).
 */
export function stopCatalogFeed(): Promise<void> {
  const f = feed();
  if (f.timer) clearInterval(f.timer);
  f.timer = null;
  f.db = null;
  return f.polling ? f.polling.catch(() => {}) : Promise.resolve();
}

/**
 * Ready to answer from a cache: the last completed poll is recent enough (else one runs now), and
 * polling continues in the background while lists are being served.
 */
export async function freshFeed(db: Db): Promise<void> {
  const f = feed();
  f.db = db;
  f.lastUse = Date.now();
  schedule(f);
  if (Date.now() - f.lastPollStart >= WINDOW_MS - POLL_MS) {
    await poll(f, db);
    // A poll already under way may have started too long ago: then run one more.
    if (Date.now() - f.lastPollStart >= WINDOW_MS - POLL_MS / 2) await poll(f, db);
  }
}

/** True while an answer computed before `deadline`-affecting changes may still be served. */
export function feedCurrent(): boolean {
  return Date.now() - feed().lastPollStart < WINDOW_MS;
}

/** The number of changes processed so far (mark it before computing a list). */
export function feedPosition(): number {
  return feed().counter;
}

/** Changes processed after `position` (those a list computed since then may or may not show). */
export function changesSince(position: number): CatalogChange[] {
  const recent = feed().recent;
  if (recent.length && recent[0]!.n > position + 1)
    return [{ seq: 0, kind: "all", productId: null, sellerId: null, before: null, after: null, deadline: 0, n: 0 }];
  return recent.filter((c) => c.n > position);
}

export function onCatalogChanges(name: string, listener: ChangeListener) {
  feed().listeners.set(name, listener);
}

/** Has this store changed its catalog within the freshness window (its own reads must be exact)? */
export async function storeChangedRecently(db: Db, sellerId: string): Promise<boolean> {
  const rows = await queryRows<{ one: number }>(
    shortDb(db),
    sql`select 1 as one from catalog_changes where seller_id = ${sellerId} and at > now() - make_interval(secs => ${env().OWN_READS_EXACT_SECONDS}) limit 1`,
  );
  return rows.length > 0;
}

/** Every category (id, slug, parent, names), kept until the feed sees a category change. */
function categoryTree(db: Db): Promise<CategoryTree> {
  const f = feed();
  f.categories ??= uncounted(() =>
    db
      .select({ id: categories.id, slug: categories.slug, parentId: categories.parentId, names: categories.names })
      .from(categories)
      .then((rows) => new Map(rows.map((r) => [r.id, r]))),
  ).catch((err: unknown) => {
    f.categories = null;
    throw err;
  });
  return f.categories;
}

/**
 * The names of these categories (those that exist), from the same tree. A category the tree does not
 * hold may be newer than it (the feed has not polled since): the tree is read again once.
 */
export async function categoryNames(db: Db, ids: readonly string[]): Promise<Map<string, Record<string, string>>> {
  let tree = await categoryTree(db);
  if (ids.some((id) => !tree.has(id))) {
    const f = feed();
    if (f.categories && (await f.categories) === tree) f.categories = null;
    tree = await categoryTree(db);
  }
  const out = new Map<string, Record<string, string>>();
  for (const id of ids) {
    const c = tree.get(id);
    if (c) out.set(id, c.names);
  }
  return out;
}

/** The ids of a category (by id or slug) and every category below it, from a tree kept per change. */
export async function categorySubtree(db: Db, idOrSlug: string): Promise<Set<string>> {
  const tree = await categoryTree(db);
  const out = new Set<string>();
  for (const c of tree.values()) if (c.id === idOrSlug || c.slug === idOrSlug) out.add(c.id);
  let grew = true;
  while (grew) {
    grew = false;
    for (const c of tree.values()) {
      if (c.parentId && out.has(c.parentId) && !out.has(c.id)) {
        out.add(c.id);
        grew = true;
      }
    }
  }
  return out;
}
