// The AI audit log: append-only, SHA-256 hash-chained per AI account (contract 3).
import { createHash } from "node:crypto";
import { and, asc, desc, eq, gt, gte, inArray, lte, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { sqlRows } from "@/lib/db/rows";
import { auditCheckpoints, auditLogs, auditRateWindows } from "@/lib/db/schema";

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
 * Append one row and answer its `seq`. Call it with the transaction of the action it records; the
 * advisory lock on the account serializes concurrent writers so the chain never forks.
 */
export async function writeAudit(db: Db, entry: AuditEntry): Promise<number> {
  return db.transaction(async (tx) => {
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
    return seq;
  });
}

type AuditRow = typeof auditLogs.$inferSelect;

/** The first row of `rows` (consecutive, ascending) whose link or content does not hold, after `prev`. */
function firstBreak(rows: AuditRow[], prev: { seq: number; hash: string }): number | null {
  let { seq, hash } = prev;
  for (const r of rows) {
    if (r.seq !== seq + 1 || r.prevHash !== hash || entryHash(r) !== r.hash) return r.seq;
    seq = r.seq;
    hash = r.hash;
  }
  return null;
}

/**
 * Recompute the whole chain of one AI account: the `seq` of the first row that was altered, or that
 * follows a removed or reordered row; null when the chain holds. Linear: for audits and tests.
 */
export async function auditChainBreak(db: Db, aiUserId: string): Promise<number | null> {
  const rows = await db.select().from(auditLogs).where(eq(auditLogs.aiUserId, aiUserId)).orderBy(asc(auditLogs.seq));
  return firstBreak(rows, { seq: 0, hash: GENESIS });
}

/** Whether the chain of one AI account holds (no row altered, removed or reordered). */
export async function verifyAuditChain(db: Db, aiUserId: string): Promise<boolean> {
  return (await auditChainBreak(db, aiUserId)) === null;
}

/** Matches a filtered page counts at most (`totalRelation: "gte"` past it); unfiltered totals are exact. */
export const COUNT_CAP = 10_000;

/** Rows verified per call of verifyChainSince: what one page view spends on catching up. */
export const VERIFY_BATCH = 5000;

/**
 * Verify the rows added since the last verified one (contract 9.1: a page costs the same at 10 rows
 * as at 1,000,000), and that the last verified row still holds its hash, so a chain re-hashed from
 * an earlier row shows too. Answers the first broken `seq` (null when none) and how far the chain
 * is now verified; a backlog larger than one batch is verified over the next calls.
 */
export async function verifyChainSince(db: Db, aiUserId: string): Promise<{ brokenAt: number | null; verifiedThrough: number }> {
  const [mark] = await db.select().from(auditCheckpoints).where(eq(auditCheckpoints.aiUserId, aiUserId));
  let from = { seq: 0, hash: GENESIS };
  if (mark) {
    const [row] = await db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.aiUserId, aiUserId), eq(auditLogs.seq, mark.seq)));
    // The verified part changed after all: find where (linear, and only then).
    if (!row || row.hash !== mark.hash || entryHash(row) !== row.hash)
      return { brokenAt: (await auditChainBreak(db, aiUserId)) ?? mark.seq, verifiedThrough: 0 };
    from = { seq: mark.seq, hash: mark.hash };
  }
  const rows = await db
    .select()
    .from(auditLogs)
    .where(and(eq(auditLogs.aiUserId, aiUserId), gt(auditLogs.seq, from.seq)))
    .orderBy(asc(auditLogs.seq))
    .limit(VERIFY_BATCH);
  const brokenAt = firstBreak(rows, from);
  if (brokenAt !== null) return { brokenAt, verifiedThrough: brokenAt - 1 };
  const last = rows.at(-1);
  if (last) {
    await db
      .insert(auditCheckpoints)
      .values({ aiUserId, seq: last.seq, hash: last.hash })
      .onConflictDoUpdate({
        target: auditCheckpoints.aiUserId,
        set: { seq: last.seq, hash: last.hash, verifiedAt: new Date() },
        setWhere: sql`${auditCheckpoints.seq} < ${last.seq}`,
      });
  }
  return { brokenAt: null, verifiedThrough: last?.seq ?? from.seq };
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

const toView = (r: AuditRow, refused?: number) => ({
  id: r.id,
  seq: r.seq,
  action: r.action,
  details: r.details,
  ip: r.ip,
  timestamp: r.createdAt.toISOString(),
  success: r.success,
  hash: r.hash,
  ...(refused !== undefined ? { refusedCount: refused } : {}),
});

/** An account's action names, read by skipping through the (account, action) index: one probe per name. */
async function actionNames(db: Db, aiUserId: string): Promise<string[]> {
  const rows = await sqlRows<{ action: string }>(
    db,
    sql`
    with recursive names(action) as (
      (select action from audit_logs where ai_user_id = ${aiUserId} order by action limit 1)
      union all
      select (select a.action from audit_logs a where a.ai_user_id = ${aiUserId} and a.action > names.action order by a.action limit 1)
      from names where names.action is not null
    )
    select action from names where action is not null`,
  );
  return rows.map((r) => r.action);
}

/** The lowest `seq` among rows shown (newest first) whose hash or, when consecutive, whose link does not hold. */
function shownRowsBreak(rows: AuditRow[], consecutive: boolean): number | null {
  let broken: number | null = null;
  rows.forEach((r, i) => {
    const older = rows[i + 1];
    const linkBroken = consecutive && (older ? r.seq !== older.seq + 1 || r.prevHash !== older.hash : r.seq === 1 && r.prevHash !== GENESIS);
    if (entryHash(r) !== r.hash || linkBroken) broken = r.seq;
  });
  return broken;
}

/**
 * Newest first, filtered, with the chain verdict. Unfiltered pages are found by `seq` (contiguous
 * per account), so neither the page nor the total reads the rows before it. Caller checks ownership.
 */
export async function listAuditLogs(db: Db, f: AuditFilter) {
  const filtered = f.action !== undefined || f.success !== undefined || f.from !== undefined || f.to !== undefined;
  const [head] = await db.select({ seq: auditLogs.seq }).from(auditLogs).where(eq(auditLogs.aiUserId, f.aiUserId)).orderBy(desc(auditLogs.seq)).limit(1);
  const top = head?.seq ?? 0;
  const offset = (f.page - 1) * f.limit;
  const [rows, total, chain, actions] = await Promise.all([
    filtered
      ? db.select().from(auditLogs).where(auditWhere(f)).orderBy(desc(auditLogs.seq)).limit(f.limit).offset(offset)
      : db
          .select()
          .from(auditLogs)
          .where(and(eq(auditLogs.aiUserId, f.aiUserId), lte(auditLogs.seq, top - offset)))
          .orderBy(desc(auditLogs.seq))
          .limit(f.limit),
    // A filtered count stops past COUNT_CAP matches, so no page reads a million rows to count them.
    filtered
      ? sqlRows<{ n: number }>(db, sql`select count(*)::int as n from (select 1 from ${auditLogs} where ${auditWhere(f)} limit ${COUNT_CAP + 1}) capped`).then(
          ([c]) => Number(c?.n ?? 0),
        )
      : top,
    verifyChainSince(db, f.aiUserId),
    actionNames(db, f.aiUserId),
  ]);
  // The rows shown are checked themselves too (content, and links between neighbours), whatever the checkpoint says.
  const shownBreak = shownRowsBreak(rows, !filtered);
  const brokenAt = chain.brokenAt === null || shownBreak === null ? (chain.brokenAt ?? shownBreak) : Math.min(chain.brokenAt, shownBreak);
  const limited = rows.filter((r) => r.action === "rate_limited").map((r) => r.seq);
  const refused = limited.length
    ? new Map(
        (
          await db
            .select({ seq: auditRateWindows.seq, refused: auditRateWindows.refused })
            .from(auditRateWindows)
            .where(and(eq(auditRateWindows.aiUserId, f.aiUserId), inArray(auditRateWindows.seq, limited)))
        ).map((r) => [r.seq, r.refused]),
      )
    : new Map<number, number>();
  return {
    logs: rows.map((r) => toView(r, refused.get(r.seq))),
    page: f.page,
    limit: f.limit,
    total: filtered ? Math.min(total, COUNT_CAP) : total,
    totalRelation: filtered && total > COUNT_CAP ? ("gte" as const) : ("eq" as const),
    chainValid: brokenAt === null,
    chainBrokenAt: brokenAt,
    chainVerifiedThrough: chain.verifiedThrough,
    actions,
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
