// The AI audit log: append-only, SHA-256 hash-chained per AI account (contract 3).
import { createHash } from "node:crypto";
import { and, asc, desc, eq, gte, lte, sql } from "drizzle-orm";
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

/**
 * Recompute the chain of one AI account: the `seq` of the first row that was altered, or that
 * follows a removed or reordered row; null when the chain holds.
 */
export async function auditChainBreak(db: Db, aiUserId: string): Promise<number | null> {
  const rows = await db.select().from(auditLogs).where(eq(auditLogs.aiUserId, aiUserId)).orderBy(asc(auditLogs.seq));
  let prev = GENESIS;
  let expectedSeq = 1;
  for (const r of rows) {
    if (r.seq !== expectedSeq || r.prevHash !== prev) return r.seq;
    const h = entryHash({ ...r, createdAt: r.createdAt, prevHash: r.prevHash });
    if (h !== r.hash) return r.seq;
    prev = r.hash;
    expectedSeq++;
  }
  return null;
}

/** Whether the chain of one AI account holds (no row altered, removed or reordered). */
export async function verifyAuditChain(db: Db, aiUserId: string): Promise<boolean> {
  return (await auditChainBreak(db, aiUserId)) === null;
}

export type AuditFilter = {
  aiUserId: string;
  action?: string;
  success?: boolean;
  from?: Date;
  to?: Date;
  page: number;
  limit: number;
};

function auditWhere(f: Omit<AuditFilter, "page" | "limit">) {
  return and(
    eq(auditLogs.aiUserId, f.aiUserId),
    f.action ? eq(auditLogs.action, f.action) : undefined,
    f.success !== undefined ? eq(auditLogs.success, f.success) : undefined,
    f.from ? gte(auditLogs.createdAt, f.from) : undefined,
    f.to ? lte(auditLogs.createdAt, f.to) : undefined,
  );
}

const toView = (r: typeof auditLogs.$inferSelect) => ({
  id: r.id,
  seq: r.seq,
  action: r.action,
  details: r.details,
  ip: r.ip,
  timestamp: r.createdAt.toISOString(),
  success: r.success,
  hash: r.hash,
});

/** Newest first, filtered, with the chain verdict of the whole log. Caller checks ownership. */
export async function listAuditLogs(db: Db, f: AuditFilter) {
  const where = auditWhere(f);
  const [rows, [count], chainBrokenAt, actions] = await Promise.all([
    db
      .select()
      .from(auditLogs)
      .where(where)
      .orderBy(desc(auditLogs.seq))
      .limit(f.limit)
      .offset((f.page - 1) * f.limit),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(auditLogs)
      .where(where),
    auditChainBreak(db, f.aiUserId),
    db.selectDistinct({ action: auditLogs.action }).from(auditLogs).where(eq(auditLogs.aiUserId, f.aiUserId)).orderBy(asc(auditLogs.action)),
  ]);
  return {
    logs: rows.map(toView),
    page: f.page,
    limit: f.limit,
    total: Number(count?.n ?? 0),
    chainValid: chainBrokenAt === null,
    chainBrokenAt,
    actions: actions.map((a) => a.action),
  };
}

const CSV_MAX_ROWS = 100_000;

/** The filtered log as CSV (RFC 4180), with spreadsheet formulas neutralized. */
export async function auditLogsCsv(db: Db, f: Omit<AuditFilter, "page" | "limit">): Promise<string> {
  const rows = await db.select().from(auditLogs).where(auditWhere(f)).orderBy(desc(auditLogs.seq)).limit(CSV_MAX_ROWS);
  const lines = [["seq", "timestamp", "action", "success", "ip", "details", "hash"].join(",")];
  for (const r of rows) lines.push([r.seq, r.createdAt.toISOString(), r.action, r.success, r.ip, r.details, r.hash].map(csvCell).join(","));
  return lines.join("\r\n") + "\r\n";
}

function csvCell(value: unknown): string {
  let s = String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
