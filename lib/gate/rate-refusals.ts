// Refusals by the rate tier in the audit log (contract 9.1): the first refusal of a window appends
// one `rate_limited` row to the chain; the window's running count of refusals is a counter beside
// it (audit_rate_windows), written at most once a second per account, so 10,000 refused requests
// cost one chained row and a few counter writes instead of 10,000 rows.
import { and, eq, sql } from "drizzle-orm";
import type { RateLimitedError } from "@/lib/api/rate-limit";
import type { Db } from "@/lib/db/client";
import { auditRateWindows } from "@/lib/db/schema";
import { writeAudit, type AuditEntry } from "@/lib/services/ai/audit";

const FLUSH_MS = 1000;
type Pending = { db: Db; aiUserId: string; windowStart: Date; refused: number; timer: NodeJS.Timeout | null };
const KEY = Symbol.for("expo-trade.rate-refusals");
const pending = (): Map<string, Pending> => ((globalThis as { [KEY]?: Map<string, Pending> })[KEY] ??= new Map());

export async function auditRateRefusal(db: Db, entry: AuditEntry, err: RateLimitedError): Promise<void> {
  const refused = err.count - err.limit;
  if (refused === 1) {
    const until = new Date(err.windowStart.getTime() + err.windowSeconds * 1000).toISOString();
    const details = `rate_limited: more than ${err.limit} requests in the window ending ${until}; later refusals in this window are counted, not logged one by one`;
    const seq = await writeAudit(db, { ...entry, action: "rate_limited", success: false, details });
    await db.insert(auditRateWindows).values({ aiUserId: entry.aiUserId, windowStart: err.windowStart, seq, refused: 1 }).onConflictDoNothing();
    return;
  }
  const key = `${entry.aiUserId}|${err.windowStart.getTime()}`;
  let p = pending().get(key);
  if (!p) pending().set(key, (p = { db, aiUserId: entry.aiUserId, windowStart: err.windowStart, refused, timer: null }));
  p.refused = Math.max(p.refused, refused);
  p.timer ??= setTimeout(() => void flush(key), FLUSH_MS).unref();
}

async function flush(key: string): Promise<void> {
  const p = pending().get(key);
  if (!p) return;
  pending().delete(key);
  await p.db
    .update(auditRateWindows)
    .set({ refused: sql`greatest(${auditRateWindows.refused}, ${p.refused})` })
    .where(and(eq(auditRateWindows.aiUserId, p.aiUserId), eq(auditRateWindows.windowStart, p.windowStart)))
    .catch((e: unknown) => console.error("rate refusal count write failed", e));
}

/** Write every pending count now (shutdown, tests). */
export async function flushRateRefusals(): Promise<void> {
  const keys = [...pending().keys()];
  for (const k of keys) clearTimeout(pending().get(k)?.timer ?? undefined);
  await Promise.all(keys.map(flush));
}
