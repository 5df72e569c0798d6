// Database health: a trivial query with a short deadline. A good answer is trusted for one second
// (HEALTH_FRESH_MS), so health requests under load do not each run `select 1` (on PGlite it runs on
// the event loop). An answer older than that, or a failed one, is never served: the request that
// finds it waits for a new probe, which concurrent requests share; a request only ever joins a
// probe that started after it arrived. So "ok" means the database answered within the last second,
// a failure is reported at once, and recovery is seen by the next request. The route wrapper
// forgets the good answer as soon as any request finds the database unreachable.
import { sql } from "drizzle-orm";
import { dbHandle, drizzleFor } from "@/lib/db/client";
import pkg from "@/package.json";

export const HEALTH_FRESH_MS = 1000;

type Health = Awaited<ReturnType<typeof probe>>;
type State = { running?: Promise<Health>; next?: Promise<Health>; ok?: { health: Health; at: number } };
const KEY = Symbol.for("expo-trade.health-check");
const state = (): State => ((globalThis as typeof globalThis & { [KEY]?: State })[KEY] ??= {});

export function checkDatabase(timeoutMs = 2000): Promise<Health> {
  const s = state();
  if (s.ok && performance.now() - s.ok.at < HEALTH_FRESH_MS) return Promise.resolve(s.ok.health);
  if (!s.running) return start(s, timeoutMs);
  // The probe in flight began before this request: wait for the next one.
  s.next ??= s.running.then(() => start(s, timeoutMs));
  return s.next;
}

/** A request saw the database fail: the next health check probes instead of trusting the last. */
export function forgetDatabaseHealth(): void {
  state().ok = undefined;
}

function start(s: State, timeoutMs: number): Promise<Health> {
  const at = performance.now();
  const p: Promise<Health> = probe(timeoutMs).then((health) => {
    if (s.running === p) s.running = undefined;
    // Dated from the probe's start: "fresh" never covers more than a second since it was sent.
    s.ok = health.status === "ok" ? { health, at } : undefined;
    return health;
  });
  s.running = p;
  s.next = undefined;
  return p;
}

async function probe(timeoutMs: number) {
  let kind: "pglite" | "postgres" | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    const handle = await dbHandle();
    kind = handle.kind;
    await Promise.race([
      drizzleFor(handle).execute(sql`select 1`),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error("database timeout")), timeoutMs))),
    ]);
    return { status: "ok" as const, db: "ok" as const, version: pkg.version, dbKind: kind };
  } catch {
    return { status: "error" as const, db: "down" as const, version: pkg.version, ...(kind ? { dbKind: kind } : {}) };
  } finally {
    clearTimeout(timer);
  }
}
