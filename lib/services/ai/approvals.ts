// Guardian confirmation (contract 3): large AI_BUYER orders and deep AI_SELLER discounts are held
// as `pending_guardian_approval`, listed for the guardian, approved or rejected, and expire after
// 72 h. Each kind knows how to release, reject or expire the record it holds.
import { and, count, desc, eq, lt, sql } from "drizzle-orm";
import { ApiError, notFound } from "@/lib/api/errors";
import type { AiActor } from "@/lib/auth/actor";
import type { Db } from "@/lib/db/client";
import { approvals, inquiries, inquiryReplies, orders, products } from "@/lib/db/schema";
import { writeAudit } from "./audit";

export const APPROVAL_TTL_MS = 72 * 60 * 60 * 1000;

export type ApprovalKind = "order" | "quote" | "price";
export type ApprovalSummary = {
  item: string;
  productId?: string;
  quantity?: number;
  unitPrice?: number;
  listPrice?: number;
  total?: number;
  currency?: string;
  counterparty?: { id: string; name: string };
  /** Why it is held, in words: "total 12000 USD exceeds the threshold of 5000". */
  rule: string;
};

type Outcome = "approved" | "rejected" | "expired";

/** What happens to the held record for each outcome. */
const APPLY: Record<ApprovalKind, (db: Db, subjectId: string, outcome: Outcome, summary: ApprovalSummary) => Promise<void>> = {
  async order(db, subjectId, outcome) {
    const status = outcome === "approved" ? "placed" : outcome;
    await db
      .update(orders)
      .set({ status, updatedAt: new Date() })
      .where(and(eq(orders.id, subjectId), eq(orders.status, "pending_guardian_approval")));
  },
  async quote(db, subjectId, outcome) {
    const [reply] = await db
      .update(inquiryReplies)
      .set({ status: outcome === "approved" ? "visible" : outcome })
      .where(and(eq(inquiryReplies.id, subjectId), eq(inquiryReplies.status, "pending_guardian_approval")))
      .returning({ inquiryId: inquiryReplies.inquiryId });
    if (reply && outcome === "approved") {
      await db
        .update(inquiries)
        .set({ status: "replied", updatedAt: new Date() })
        .where(and(eq(inquiries.id, reply.inquiryId), eq(inquiries.status, "new")));
    }
  },
  async price(db, subjectId, outcome, summary) {
    if (outcome !== "approved" || summary.unitPrice === undefined) return;
    await db
      .update(products)
      .set({ price: summary.unitPrice.toFixed(2), updatedAt: new Date() })
      .where(eq(products.id, subjectId));
  },
};

/** Hold an AI account's action for its guardian. Call inside the action's transaction. */
export async function requestApproval(
  db: Db,
  actor: AiActor,
  input: { kind: ApprovalKind; subjectId: string; summary: ApprovalSummary; reason?: string | null; ip: string },
) {
  const [row] = await db
    .insert(approvals)
    .values({
      aiUserId: actor.user.id,
      guardianId: actor.guardian.id,
      kind: input.kind,
      subjectId: input.subjectId,
      summary: input.summary,
      reason: input.reason ?? null,
      expiresAt: new Date(Date.now() + APPROVAL_TTL_MS),
    })
    .returning();
  await writeAudit(db, {
    aiUserId: actor.user.id,
    guardianId: actor.guardian.id,
    action: `${input.kind}.approval_requested`,
    details: `${input.summary.item}: ${input.summary.rule} (approval ${row!.id})`,
    ip: input.ip,
    success: true,
  });
  return row!;
}

/** Expire what waited longer than 72 h (run before every read and decision). */
export async function expireDueApprovals(db: Db, guardianId?: string): Promise<number> {
  const due = await db
    .update(approvals)
    .set({ status: "expired", decidedAt: new Date() })
    .where(and(eq(approvals.status, "pending"), lt(approvals.expiresAt, new Date()), guardianId ? eq(approvals.guardianId, guardianId) : undefined))
    .returning();
  for (const a of due) await APPLY[a.kind](db, a.subjectId, "expired", a.summary as ApprovalSummary);
  return due.length;
}

const view = (a: typeof approvals.$inferSelect, username?: string) => ({
  id: a.id,
  aiUserId: a.aiUserId,
  aiUsername: username,
  kind: a.kind,
  subjectId: a.subjectId,
  summary: a.summary as ApprovalSummary,
  reason: a.reason,
  status: a.status,
  createdAt: a.createdAt.toISOString(),
  expiresAt: a.expiresAt.toISOString(),
  decidedAt: a.decidedAt?.toISOString() ?? null,
});

export async function listApprovals(db: Db, guardianId: string, f: { status?: "pending" | "approved" | "rejected" | "expired"; page: number; limit: number }) {
  await expireDueApprovals(db, guardianId);
  const where = and(eq(approvals.guardianId, guardianId), f.status ? eq(approvals.status, f.status) : undefined);
  const rows = await db
    .select({ a: approvals, username: sql<string>`(select username from users where users.id = ${approvals.aiUserId})` })
    .from(approvals)
    .where(where)
    .orderBy(desc(approvals.createdAt))
    .limit(f.limit)
    .offset((f.page - 1) * f.limit);
  const [total] = await db.select({ n: count() }).from(approvals).where(where);
  return { approvals: rows.map((r) => view(r.a, r.username)), page: f.page, limit: f.limit, total: Number(total?.n ?? 0) };
}

export async function decideApproval(db: Db, guardianId: string, id: string, decision: "approved" | "rejected") {
  await expireDueApprovals(db, guardianId);
  return db.transaction(async (tx) => {
    const [a] = await tx
      .select()
      .from(approvals)
      .where(and(eq(approvals.id, id), eq(approvals.guardianId, guardianId)))
      .for("update");
    if (!a) throw notFound("Approval");
    if (a.status !== "pending") throw new ApiError("conflict", `This approval is already ${a.status}`);
    const [updated] = await tx.update(approvals).set({ status: decision, decidedAt: new Date() }).where(eq(approvals.id, id)).returning();
    await APPLY[a.kind](tx, a.subjectId, decision, a.summary as ApprovalSummary);
    return view(updated!);
  });
}
