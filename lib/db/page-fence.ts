// The page fence (issue #12, migration 0029): tells the page cache when a stored page may be served
// without reading its version, still exact at once on every instance (contract 9.3).
//
// A cached page is exact when nothing it shows changed since its version was read. Reading the version
// on every hit proves that at the price of a statement per request (a fifth of a cached page's cost and
// most of its latency). The fence proves it without one: every write of what the pages show (products
// other than their view counter, categories, stores, booths, exhibitions) calls page_fence_pass() in its
// transaction, which cannot commit while an instance holds the fence.
// - PostgreSQL: an instance holds advisory lock 724113101 in share mode on a connection of its own,
//   taken only while no fenced write is under way (page_fence_acquire). A write that finds it held
//   raises a notice and waits. This instance's own writes reach it as that notice on their connection
//   (every pool's onnotice): the fence is let go before the write can commit, so no request starting
//   after the commit trusts an older read. Another instance whose write waits says so by NOTIFY, which
//   every holder hears at once; any other writer (a script, psql) is seen by the poll below and waits
//   at most that long. After letting go, an instance takes the fence again only after QUIET_MS without
//   a fenced write, so a steady stream of writes costs each one nothing.
// - The fence is trusted only within LEASE_MS of the last poll that found it held (sent, not answered):
//   the fence's connection runs with idle_session_timeout, so a frozen or cut-off instance loses the
//   lock on the server (writers go on) only after it has stopped trusting it.
// - PGlite: one process owns the directory and its one session runs every statement in turn, so the
//   fence is always this process's: each committed write arrives as a notification before the writing
//   statement's promise resolves, and bumps the generation.
// A page read while the generation is g may be served without a read while the generation is still g
// and the fence trusted (trusts(g)). Taking or letting go of the fence moves the generation too.
import { applicationName } from "@/lib/instance";
import type { DbHandle } from "./client";

/** The notice page_fence_pass() raises when it finds the fence held (migration 0029). */
export const PAGE_FENCE_NOTICE = "expo-page-fence";
const LOCK = 724_113_101;
const POLL_MS = 100;
/** How long a poll that found the fence held vouches for it; well under the server's idle_session_timeout. */
const LEASE_MS = 1_000;
const IDLE_SESSION_TIMEOUT_MS = 3_000;
/** After letting go for a write, the fence is taken again once no fenced write came for this long. */
const QUIET_MS = 2_000;
/** Without a page served for this long, the fence is let go and the poll stops (taken again on the next). */
const IDLE_MS = 10_000;

// The lock's rows in pg_locks (a bigint key below 2^32: classid 0, objid the key, objsubid 1), read once a
// poll: held by this session, and asked for by a write.
const LOCK_ROWS = `from pg_locks l where l.locktype = 'advisory' and l.classid = 0 and l.objid = ${LOCK} and l.objsubid = 1
  and l.database = (select oid from pg_database where datname = current_database())`;
const POLL = `select coalesce(bool_or(l.pid = pg_backend_pid() and l.granted), false) as held,
  coalesce(bool_or(not l.granted), false) as waited ${LOCK_ROWS}`;

type Sql = import("postgres").Sql;
type State = {
  gen: number;
  /** PGlite: listening; PostgreSQL: the lock is held. */
  held: boolean;
  /** performance.now() when the last poll that found the lock held was sent. */
  confirmedAt: number;
  acquiring: boolean;
  /** A fenced write was announced while the lock was being taken: let go as soon as it is. */
  letGoAfterAcquire: boolean;
  quietUntil: number;
  lastUse: number;
  timer: NodeJS.Timeout | null;
  busy: boolean;
  sql: Sql | null;
  handle: DbHandle | null;
  starting: Promise<void> | null;
  /** PostgreSQL: subscribed to the release channel. */
  listening: boolean;
};

const KEY = Symbol.for("expo-trade.page-fence");
function state(): State {
  const g = globalThis as typeof globalThis & { [KEY]?: State };
  return (g[KEY] ??= {
    gen: 0,
    held: false,
    confirmedAt: 0,
    acquiring: false,
    letGoAfterAcquire: false,
    quietUntil: 0,
    lastUse: 0,
    timer: null,
    busy: false,
    sql: null,
    handle: null,
    starting: null,
    listening: false,
  });
}

/** The current generation: record it before reading a page's version. */
export function fenceGeneration(): number {
  return state().gen;
}

/** Whether a page whose version was read at generation `gen` may be served without reading it again. */
export function fenceTrusts(gen: number): boolean {
  const s = state();
  if (!s.held || gen !== s.gen) return false;
  return s.handle?.kind === "pglite" || performance.now() - s.confirmedAt < LEASE_MS;
}

/** Sent by an instance whose write waits for the fence: every holder that listens lets go at once. */
const RELEASE_CHANNEL = "expo_page_fence_release";
export const PAGE_FENCE_RELEASE = `select pg_notify('${RELEASE_CHANNEL}', '')`;

/**
 * A notice from one of this process's connections (client.ts): a fenced write of this instance waits. It lets
 * go of the fence itself and, by `release` (PAGE_FENCE_RELEASE on another connection), asks the other
 * holders to: they hear it at once instead of at their next poll.
 */
export function onPageFenceNotice(message: string, release: () => void = () => {}): void {
  if (message !== PAGE_FENCE_NOTICE) return;
  release();
  const s = state();
  s.gen++;
  onRelease(s);
}

function onRelease(s: State): void {
  s.quietUntil = performance.now() + QUIET_MS;
  if (s.acquiring) s.letGoAfterAcquire = true;
  if (s.held) void letGo(s);
}

/** A cached page is being served: keep the fence (with the database handle: start it if it is not running). */
export function keepPageFence(handle?: DbHandle): void {
  const s = state();
  s.lastUse = performance.now();
  if (!handle || (s.handle && s.handle !== handle)) return;
  // Running: PostgreSQL polls, PGlite listens.
  if (s.timer || s.starting || (s.held && handle.kind === "pglite")) return;
  s.handle = handle;
  s.starting = start(s, handle)
    .catch((err: unknown) => console.error("page fence failed to start; pages read their versions", err))
    .finally(() => {
      s.starting = null;
    });
}

async function start(s: State, handle: DbHandle): Promise<void> {
  if (handle.kind === "pglite") {
    if (s.held) return;
    await handle.client.exec("set expo.page_fence_notify = 'on'");
    await handle.client.listen("expo_page_fence", () => {
      s.gen++;
    });
    s.gen++;
    s.held = true;
    return;
  }
  // On the main pool's own LISTEN connection (the fence's connection would be closed as idle).
  if (!s.listening) {
    await handle.client.listen(RELEASE_CHANNEL, () => onRelease(s));
    s.listening = true;
  }
  const { default: postgres } = await import("postgres");
  s.sql ??= postgres(handle.url, {
    max: 1,
    idle_timeout: 0,
    max_lifetime: 0,
    connect_timeout: 5,
    onnotice: () => {},
    onclose: () => lost(s),
    connection: { application_name: applicationName(), idle_session_timeout: IDLE_SESSION_TIMEOUT_MS },
  });
  s.timer = setInterval(() => void tick(s), POLL_MS);
  s.timer.unref();
  await tick(s);
}

function lost(s: State): void {
  if (!s.held && !s.acquiring) return;
  s.held = false;
  s.gen++;
}

async function tick(s: State): Promise<void> {
  if (s.busy || !s.sql) return;
  s.busy = true;
  try {
    const now = performance.now();
    if (now - s.lastUse > IDLE_MS) {
      if (s.held) await letGo(s);
      clearInterval(s.timer!);
      s.timer = null;
      return;
    }
    if (s.held) {
      const sent = performance.now();
      const [row] = (await s.sql.unsafe(POLL)) as unknown as { held: boolean; waited: boolean }[];
      if (!s.held) return;
      if (!row?.held) return lost(s);
      if (row.waited) return void (await letGo(s));
      s.confirmedAt = sent;
      return;
    }
    if (now < s.quietUntil) return;
    s.acquiring = true;
    s.letGoAfterAcquire = false;
    const sent = performance.now();
    const [row] = await s.sql<{ ok: boolean }[]>`select page_fence_acquire() as ok`;
    s.acquiring = false;
    if (!row?.ok) return;
    s.gen++;
    s.held = true;
    s.confirmedAt = sent;
    if (s.letGoAfterAcquire) await letGo(s);
  } catch (err) {
    s.acquiring = false;
    lost(s);
    s.quietUntil = performance.now() + QUIET_MS;
    console.error("page fence poll failed; pages read their versions", err);
  } finally {
    s.busy = false;
  }
}

/** Stop trusting first, then release the lock: a write waiting for it commits only after. */
async function letGo(s: State): Promise<void> {
  if (!s.held) return;
  s.held = false;
  s.gen++;
  s.quietUntil = performance.now() + QUIET_MS;
  try {
    await s.sql?.unsafe(`select pg_advisory_unlock_shared(${LOCK})`);
  } catch {
    // Gone with its connection, or (if the connection somehow lives on) it must be: writers wait for it.
    const sql = s.sql;
    s.sql = null;
    if (s.timer) clearInterval(s.timer);
    s.timer = null;
    await sql?.end({ timeout: 0 }).catch(() => {});
  }
}

/** Shutdown: let go of the fence and close its connection. */
export async function stopPageFence(): Promise<void> {
  const s = state();
  if (s.timer) clearInterval(s.timer);
  s.timer = null;
  s.held = false;
  s.gen++;
  const sql = s.sql;
  s.sql = null;
  s.handle = null;
  await sql?.end({ timeout: 2 }).catch(() => {});
}
