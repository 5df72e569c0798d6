// The AI audit log: append-only, SHA-256 hash-chained per AI account (contract 3).
import { createHash } from "node:crypto";
import { asc, desc, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { auditLogs } from "@/lib/db/schema";

export type AuditEntry = {
  aiUserId: string;
  guardianId: string;
  action: string;
  details: string;
  ip: string;
  success: boolean;
};

const GENESIS = "0".repeat(64);

function entryHash(e: AuditEntry & { seq: number; createdAt: Date; prevHash: string }): string {
  const content = JSON.stringify([e.aiUserId, e.seq, e.action, e.details, e.ip, e.success, e.createdAt.toISOString(), e.prevHash]);
  return createHash("sha256").update(content).digest("hex");
}

/**
 * Append one row. Call it with the transaction of the action it records; the advisory lock on the
 * account serializes concurrent writers so the chain never forks.
 */
export async function writeAudit(db: Db, entry: AuditEntry): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${"audit:" + entry.aiUserId}))`);
    const [last] = await tx
      .select({ seq: auditLogs.seq, hash: auditLogs.hash })
      .from(auditLogs)
      .where(eq(auditLogs.aiUserId, entry.aiUserId))
      .orderBy(desc(auditLogs.seq))
      .limit(1);
    const seq = (last?.seq ?? 0) + 1;
    const prevHash = last?.hash ?? GENESIS;
    // Millisecond precision, so the stored timestamp hashes the same when read back.
    const createdAt = new Date();
    const details = entry.details.slice(0, 2000);
    const hash = entryHash({ ...entry, details, seq, createdAt, prevHash });
    await tx.insert(auditLogs).values({ ...entry, details, seq, createdAt, prevHash, hash });
  });
}

/** Recompute the chain of one AI account; false when any row was altered, removed or reordered. */
export async function verifyAuditChain(db: Db, aiUserId: string): Promise<boolean> {
  const rows = await db.select().from(auditLogs).where(eq(auditLogs.aiUserId, aiUserId)).orderBy(asc(auditLogs.seq));
  let prev = GENESIS;
  let expectedSeq = 1;
  for (const r of rows) {
    if (r.seq !== expectedSeq || r.prevHash !== prev) return false;
    const h = entryHash({ ...r, createdAt: r.createdAt, prevHash: r.prevHash });
    if (h !== r.hash) return false;
    prev = r.hash;
    expectedSeq++;
  }
  return true;
}
