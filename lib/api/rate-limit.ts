// Rate tiers (contract 6): fixed windows counted in the database, so every instance shares them.
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Actor } from "@/lib/auth/actor";
import { embeddedOf, shortDb, type Db } from "@/lib/db/client";
import { rateLimits } from "@/lib/db/schema";
import { uncounted } from "@/lib/db/query-count";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/errors";
import { KeyedBatch, type Waiting } from "@/lib/db/keyed-batch";
import { SWEEP_BATCH, sweepDue as sweepDueNamed } from "@/lib/db/sweep";

export type RateState = { limit: number; remaining: number; resetSeconds: number; windowSeconds: number };

/** 429 with where the request stood: its number in the window (the gate audits one row per window). */
export class RateLimitedError extends ApiError {
  constructor(
    readonly count: number,
    readonly limit: number,
    readonly windowStart: Date,
    readonly windowSeconds: number,
    headers: Record<string, string>,
    resetSeconds: number,
  ) {
    super("rate_limited", `Rate limit of ${limit} requests per ${windowSeconds} s exceeded; retry in ${resetSeconds} s`, { headers });
  }
}

/** The anonymous tier of an address: anonymous callers, and callers whose credentials are invalid. */
export function anonymousKey(ip: string): { key: string; limit: number } {
  return { key: `ip:${ip}`, limit: env().RATE_LIMIT_ANON_PER_HOUR };
}

export function rateKey(actor: Actor, ip: string): { key: string; limit: number } | null {
  const e = env();
  if (actor.type === "human" || actor.type === "ai") {
    if (actor.rateTier === "unlimited") return null;
    return { key: `u:${actor.user.id}`, limit: e.RATE_LIMIT_USER_PER_HOUR };
  }
  if (actor.type === "system") return null;
  return anonymousKey(ip);
}

/**
 * Count a request whose credentials are invalid against its address's anonymous tier (contract
 * 9.1), before it is refused 401: otherwise every guess at a token or key would be free. Past the
 * limit this throws 429 instead.
 */
export function consumeAnonymousTier(db: Db, ip: string): Promise<RateState> {
  const { key, limit } = anonymousKey(ip);
  return consumeRateLimit(db, key, limit);
}

/** The fixed window `now` falls in, and the seconds until it ends. */
export function currentWindow(windowSeconds: number, nowMs = Date.now()): { start: Date; resetSeconds: number } {
  const start = new Date(Math.floor(nowMs / (windowSeconds * 1000)) * windowSeconds * 1000);
  return { start, resetSeconds: Math.max(1, Math.ceil((start.getTime() + windowSeconds * 1000 - nowMs) / 1000)) };
}

// Every counted request adds to a counter row. Requests arriving while the previous write is in
// flight are added together in the next one (group commit, lib/db/keyed-batch.ts): one statement and
// one commit for many requests, and no queue of transactions waiting on the same hot row. Each request
// still gets its exact position in the count. Per database object (a transaction's writes stay in it).
type Counter = { key: string; windowStart: Date; windowSeconds: number };

const batchers = new WeakMap<Db, KeyedBatch<Counter, number>>();
const prepared = new WeakMap<Db, ReturnType<typeof prepareCount>>();

/** The one-key form (the common case at low load), built once per database object. */
function prepareCount(db: Db) {
  return db
    .insert(rateLimits)
    .values({
      key: sql.placeholder("key"),
      windowStart: sql.placeholder("windowStart"),
      windowSeconds: sql.placeholder("windowSeconds"),
      count: sql.placeholder("n"),
    })
    .onConflictDoUpdate({ target: [rateLimits.key, rateLimits.windowStart], set: { count: sql`${rateLimits.count} + excluded.count` } })
    .returning({ key: rateLimits.key, windowStart: rateLimits.windowStart, count: rateLimits.count })
    .prepare("rate_limit_count");
}

async function writeCounts(db: Db, batch: Waiting<Counter, number>[]) {
  if (batch.length === 1) {
    let stmt = prepared.get(db);
    if (!stmt) prepared.set(db, (stmt = prepareCount(db)));
    const b = batch[0]!;
    return stmt.execute({ key: b.item.key, windowStart: b.item.windowStart, windowSeconds: b.item.windowSeconds, n: b.waiters.length });
  }
  return db
    .insert(rateLimits)
    .values(batch.map((b) => ({ key: b.item.key, windowStart: b.item.windowStart, windowSeconds: b.item.windowSeconds, count: b.waiters.length })))
    .onConflictDoUpdate({ target: [rateLimits.key, rateLimits.windowStart], set: { count: sql`${rateLimits.count} + excluded.count` } })
    .returning({ key: rateLimits.key, windowStart: rateLimits.windowStart, count: rateLimits.count });
}

function counter(db: Db): KeyedBatch<Counter, number> {
  let b = batchers.get(db);
  if (!b)
    batchers.set(
      db,
      (b = new KeyedBatch(
        async (batch) => {
          const rows = await writeCounts(db, batch);
          const totals = new Map(rows.map((r) => [`${r.key}|${r.windowStart.getTime()}`, r.count]));
          for (const p of batch) {
            const total = totals.get(`${p.item.key}|${p.item.windowStart.getTime()}`) ?? p.waiters.length;
            // The i-th request of this batch for the key was number total - n + 1 + i.
            p.waiters.forEach((w, i) => w.resolve(total - p.waiters.length + 1 + i));
          }
        },
        // Shared work: not counted against the request that happens to start it (DEBUG_QUERY_COUNT).
        (go) => uncounted(go),
      )),
    );
  return b;
}

// Ended windows are swept about once a minute per process (lib/db/sweep.ts), by the counted request (or flush)
// that finds the last sweep that old. Was 0.5% of counted requests (5% of PGlite's flushes) with a statement that
// read the whole table. At most SWEEP_BATCH ended rows per window length a sweep (300,000 callers an hour per length
// and instance): larger limits pushed the plan's estimate past PostgreSQL's JIT threshold (+25 ms of compiling).
const sweepDue = () => sweepDueNamed("rate-limits");

/**
 * Delete the rows of windows that have ended. Each row knows its own window's length: the table
 * holds request tiers and sign-in failures (and instances may be configured differently), so a
 * sweep by the caller's own window would delete longer windows still running.
 */
export async function sweepFinishedWindows(db: Db): Promise<void> {
  // Each window length found on the index (one probe per distinct length: a loose index scan, there are a few), then
  // up to SWEEP_BATCH of that length's ended rows as a range on the same index, deleted by their row addresses: the
  // rows of running windows are never read. (A plain join of the lengths was planned as a hash join over the whole
  // table; the limit keeps each length's lookup a parameterized index range, and one sweep's work bounded.)
  await db.execute(sql`
    with recursive lens(s) as (
      (select window_seconds from rate_limits order by window_seconds limit 1)
      union all
      select (select r.window_seconds from rate_limits r where r.window_seconds > lens.s order by r.window_seconds limit 1)
      from lens where lens.s is not null
    )
    delete from rate_limits where ctid = any(array(
      select e.ctid from lens cross join lateral (
        select r.ctid from rate_limits r
        where r.window_seconds = lens.s and r.window_start < now() - make_interval(secs => lens.s)
        limit ${sql.raw(String(SWEEP_BATCH))}
      ) e
    ))`);
}

/** Add one to a key's count in the current window; returns the new count. */
export async function bumpCount(request: Db, key: string, windowSeconds: number): Promise<number> {
  // Every request waits for its count: on the short statements' connections (shortDb).
  const db = shortDb(request);
  const { start } = currentWindow(windowSeconds);
  const count = counter(db).add(`${key}|${start.getTime()}`, { key, windowStart: start, windowSeconds });
  if (sweepDue()) await uncounted(() => sweepFinishedWindows(db));
  return count;
}

/** The counts of several keys in the current window, without counting (missing keys: 0). */
export async function peekCounts(db: Db, keys: string[], windowSeconds: number): Promise<number[]> {
  const { start } = currentWindow(windowSeconds);
  const rows = await db
    .select({ key: rateLimits.key, count: rateLimits.count })
    .from(rateLimits)
    .where(and(inArray(rateLimits.key, keys), eq(rateLimits.windowStart, start)));
  return keys.map((k) => rows.find((r) => r.key === k)?.count ?? 0);
}

// On PGlite the request tiers are counted in memory and written behind. Each request's statements run on the event
// loop before the next request is read, so a group commit there holds one request: the count's own transaction (and
// fsync) was most of a cached read (~300-600 against ~3,000-4,300 req/s without it, BENCHMARKS.md, session 25). One
// process holds a PGlite directory, so no other instance needs the count before the answer: this process's count is
// exact, starts from the stored one on a window's first request, and reaches the table within FLUSH_MS and at
// shutdown (a crash loses at most that long's counts). PostgreSQL keeps the shared group commit above.
const FLUSH_MS = 250;
/**
 * Past this many kept counts, those written already are dropped (read again from the table on their caller's next
 * request): callers from many addresses cannot grow this process's memory without bound.
 */
const LOCAL_MAX = 10_000;
type LocalCount = { key: string; windowStart: Date; windowSeconds: number; n: number; stored: number; loaded: boolean; ready: Promise<void> };
type Local = { db: Db; counts: Map<string, LocalCount>; timer: NodeJS.Timeout | null; flushing: Promise<void> | null };
const LOCAL = Symbol.for("expo-trade.rate-limit.local");
/** Per embedded client, on globalThis: both copies of this module count in the same place. */
const locals = (): Map<object, Local> => ((globalThis as typeof globalThis & { [LOCAL]?: Map<object, Local> })[LOCAL] ??= new Map());

async function localCount(client: object, db: Db, key: string, start: Date, windowSeconds: number): Promise<number> {
  let local = locals().get(client);
  if (!local) locals().set(client, (local = { db, counts: new Map(), timer: null, flushing: null }));
  const id = `${key}|${start.getTime()}`;
  let c = local.counts.get(id);
  if (!c) {
    const entry: LocalCount = { key, windowStart: start, windowSeconds, n: 0, stored: 0, loaded: false, ready: Promise.resolve() };
    entry.ready = peekCounts(db, [key], windowSeconds).then(([n = 0]) => {
      entry.n += n;
      entry.stored = n;
      entry.loaded = true;
    });
    local.counts.set(id, (c = entry));
    c.ready.catch(() => local.counts.delete(id));
  }
  await c.ready;
  c.n++;
  local.timer ??= setTimeout(() => void flushLocal(local), FLUSH_MS).unref();
  return c.n;
}

async function flushLocal(local: Local): Promise<void> {
  while (local.flushing) await local.flushing;
  if (local.timer) clearTimeout(local.timer);
  local.timer = null;
  const now = Date.now();
  const rows = [...local.counts.values()].filter((c) => c.n > c.stored).map((c) => ({ c, n: c.n }));
  // Written and loaded (a count still being read has requests waiting on it): dropped once its window has ended, or
  // while there are too many.
  for (const [id, c] of local.counts) {
    if (c.loaded && c.n === c.stored && (local.counts.size > LOCAL_MAX || c.windowStart.getTime() + c.windowSeconds * 1000 < now)) local.counts.delete(id);
  }
  if (!rows.length) return;
  local.flushing = (async () => {
    await local.db
      .insert(rateLimits)
      .values(rows.map(({ c, n }) => ({ key: c.key, windowStart: c.windowStart, windowSeconds: c.windowSeconds, count: n - c.stored })))
      .onConflictDoUpdate({ target: [rateLimits.key, rateLimits.windowStart], set: { count: sql`${rateLimits.count} + excluded.count` } });
    for (const { c, n } of rows) c.stored = n;
    if (sweepDue()) await sweepFinishedWindows(local.db);
  })()
    .catch((err: unknown) => console.error("writing rate counts failed", err))
    .finally(() => {
      local.flushing = null;
      if ([...local.counts.values()].some((c) => c.n > c.stored)) local.timer ??= setTimeout(() => void flushLocal(local), FLUSH_MS).unref();
    });
  await local.flushing;
}

/** Writes the request tiers' counts kept in memory (PGlite); shutdown, and a test's own database, await it before closing. */
export async function flushRateCounts(): Promise<void> {
  await Promise.all([...locals().values()].map((l) => uncounted(() => flushLocal(l))));
}

/** Count one request; throws 429 `rate_limited` (with Retry-After) past the limit. */
export async function consumeRateLimit(db: Db, key: string, limit: number): Promise<RateState> {
  const windowSeconds = env().RATE_LIMIT_WINDOW_SECONDS;
  const { start, resetSeconds } = currentWindow(windowSeconds);
  const client = embeddedOf(db);
  const count = client ? await uncounted(() => localCount(client, db, key, start, windowSeconds)) : await bumpCount(db, key, windowSeconds);
  const state = { limit, remaining: Math.max(0, limit - count), resetSeconds, windowSeconds };
  if (count > limit) {
    throw new RateLimitedError(count, limit, start, windowSeconds, { ...rateHeaders(state), "Retry-After": String(resetSeconds) }, resetSeconds);
  }
  return state;
}

export function rateHeaders(s: RateState): Record<string, string> {
  return {
    "RateLimit-Policy": `${s.limit};w=${s.windowSeconds}`,
    RateLimit: `limit=${s.limit}, remaining=${s.remaining}, reset=${s.resetSeconds}`,
  };
}
