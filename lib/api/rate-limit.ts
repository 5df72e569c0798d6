// Rate tiers (contract 6): fixed windows counted in the database, so every instance shares them.
import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { Actor } from "@/lib/auth/actor";
import type { Db } from "@/lib/db/client";
import { rateLimits } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { ApiError } from "./errors";

export type RateState = { limit: number; remaining: number; resetSeconds: number; windowSeconds: number };

export function rateKey(actor: Actor, ip: string): { key: string; limit: number } | null {
  const e = env();
  if (actor.type === "human" || actor.type === "ai") {
    if (actor.rateTier === "unlimited") return null;
    return { key: `u:${actor.user.id}`, limit: e.RATE_LIMIT_USER_PER_HOUR };
  }
  if (actor.type === "system") return null;
  return { key: `ip:${ip}`, limit: e.RATE_LIMIT_ANON_PER_HOUR };
}

/** The fixed window `now` falls in, and the seconds until it ends. */
export function currentWindow(windowSeconds: number, nowMs = Date.now()): { start: Date; resetSeconds: number } {
  const start = new Date(Math.floor(nowMs / (windowSeconds * 1000)) * windowSeconds * 1000);
  return { start, resetSeconds: Math.max(1, Math.ceil((start.getTime() + windowSeconds * 1000 - nowMs) / 1000)) };
}

// Every counted request runs this statement: built once per database object, not per request.
const prepared = new WeakMap<Db, ReturnType<typeof prepareCount>>();
function prepareCount(db: Db) {
  return db
    .insert(rateLimits)
    .values({ key: sql.placeholder("key"), windowStart: sql.placeholder("windowStart"), count: 1 })
    .onConflictDoUpdate({ target: [rateLimits.key, rateLimits.windowStart], set: { count: sql`${rateLimits.count} + 1` } })
    .returning({ count: rateLimits.count })
    .prepare("rate_limit_count");
}
function countStatement(db: Db) {
  let stmt = prepared.get(db);
  if (!stmt) prepared.set(db, (stmt = prepareCount(db)));
  return stmt;
}

/** Add one to a key's count in the current window; returns the new count. */
export async function bumpCount(db: Db, key: string, windowSeconds: number): Promise<number> {
  const { start } = currentWindow(windowSeconds);
  const [row] = await countStatement(db).execute({ key, windowStart: start });
  if (Math.random() < 0.005) {
    // Occasional sweep of finished windows; cheap thanks to the primary key order.
    await db.delete(rateLimits).where(lt(rateLimits.windowStart, new Date(start.getTime() - windowSeconds * 1000)));
  }
  return row?.count ?? 1;
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

/** Count one request; throws 429 `rate_limited` (with Retry-After) past the limit. */
export async function consumeRateLimit(db: Db, key: string, limit: number): Promise<RateState> {
  const windowSeconds = env().RATE_LIMIT_WINDOW_SECONDS;
  const { resetSeconds } = currentWindow(windowSeconds);
  const count = await bumpCount(db, key, windowSeconds);
  const state = { limit, remaining: Math.max(0, limit - count), resetSeconds, windowSeconds };
  if (count > limit) {
    throw new ApiError("rate_limited", `Rate limit of ${limit} requests per ${windowSeconds} s exceeded; retry in ${resetSeconds} s`, {
      headers: { ...rateHeaders(state), "Retry-After": String(resetSeconds) },
    });
  }
  return state;
}

export function rateHeaders(s: RateState): Record<string, string> {
  return {
    "RateLimit-Policy": `${s.limit};w=${s.windowSeconds}`,
    RateLimit: `limit=${s.limit}, remaining=${s.remaining}, reset=${s.resetSeconds}`,
  };
}
