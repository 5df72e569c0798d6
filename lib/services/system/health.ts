// Database health: a trivial query with a short deadline. Concurrent checks share one round trip,
// but a request only ever joins a check that started after it arrived, so no answer is older than
// the request asking for it (under load, one query serves every health request waiting for it).
import { sql } from "drizzle-orm";
import { dbHandle, drizzleFor } from "@/lib/db/client";
import pkg from "@/package.json";

type Health = Awaited<ReturnType<typeof probe>>;
type State = { running?: Promise<Health>; next?: Promise<Health> };
const KEY = Symbol.for("expo-trade.health-check");
const state = (): State => ((globalThis as typeof globalThis & { [KEY]?: State })[KEY] ??= {});

export function checkDatabase(timeoutMs = 2000): Promise<Health> {
  const s = state();
  if (!s.running) return start(s, timeoutMs);
  // The check in flight began before this request: wait for the next one.
  s.next ??= s.running.then(() => start(s, timeoutMs));
  return s.next;
}

function start(s: State, timeoutMs: number): Promise<Health> {
  const p: Promise<Health> = probe(timeoutMs).finally(() => {
    if (s.running === p) s.running = undefined;
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
