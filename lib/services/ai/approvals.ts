// Guardian confirmation (contract 3): large AI_BUYER orders, deep AI_SELLER discounts and large task
// rewards (contract 9.1) are held
// as `pending_guardian_approval`, listed for the guardian, approved or rejected, and expire after
// 72 h. Each kind knows how to release, reject or expire the record it holds.
import { and, count, desc, eq, isNull, lt, sql } from "drizzle-orm";
import type { AiActor } from "@/lib/auth/actor";
import type { Db } from "@/lib/db/client";
import { approvals, products } from "@/lib/db/schema";
import { ApiError } from "@/lib/errors";
import type { Ctx } from "@/lib/gate/context";
import type { ApprovalSummary } from "@/lib/schemas/ai";
import { storedTiers } from "@/lib/services/catalog/price-tiers";
import { transition, transitionIfStill } from "@/lib/services/state/transition";
import { approvalDecided, approvalRequested } from "@/lib/services/notify/events";
import { markSubjectRead } from "@/lib/services/notify/list";
import { settleAcceptance, settleHeldOffer } from "@/lib/services/trade/offer-holds";
import { writeAudit } from "./audit";

export const APPROVAL_TTL_MS = 72 * 60 * 60 * 1000;

export type ApprovalKind = "order" | "quote" | "price" | "task";
export type { ApprovalSummary };

type Outcome = "approved" | "rejected" | "expired";

/**
 * What happens to the held record for each outcome, compare-and-set like every status change. An
 * approval releases only a record still held: approving an order its buyer cancelled meanwhile is
 * 409 `invalid_state` (and the approval stays pending); a rejection or an expiry of a record
 * that moved on has nothing left to do.
 */
const APPLY: Record<ApprovalKind, (db: Db, subjectId: string, outcome: Outcome, summary: ApprovalSummary) => Promise<void>> = {
  async order(db, subjectId, outcome) {
    const change = { from: ["pending_guardian_approval"], to: outcome === "approved" ? "placed" : outcome } as const;
    if (outcome === "approved") await transition(db, "order", subjectId, { ...change, verb: "approved", set: { placedAt: new Date() } });
    else await transitionIfStill(db, "order", subjectId, change);
    // An order placed by accepting an offer: the offer follows it (contract 9.4).
    await settleAcceptance(db, subjectId, outcome);
  },
  async quote(db, subjectId, outcome, summary) {
    // A held offer (a quote on a requirement, a counter, or the offer of a quoted reply).
    const offerId = summary.quote?.offerId;
    if (offerId) await settleHeldOffer(db, offerId, outcome);
    if (offerId === subjectId) return;
    const change = { from: ["pending_guardian_approval"], to: outcome === "approved" ? "visible" : outcome } as const;
    if (outcome !== "approved") {
      await transitionIfStill(db, "reply", subjectId, change);
      return;
    }
    const reply = await transition(db, "reply", subjectId, { ...change, verb: "approved" });
    // The first visible reply answers a new inquiry; one already replied or closed stays as it is.
    await transitionIfStill(db, "inquiry", reply.inquiryId, { from: ["new"], to: "replied" });
  },
  async task(db, subjectId, outcome) {
    const change = { from: ["pending_guardian_approval"], to: outcome === "approved" ? "open" : outcome } as const;
    if (outcome === "approved") await transition(db, "task", subjectId, { ...change, verb: "approved" });
    else await transitionIfStill(db, "task", subjectId, change);
  },
  async price(db, subjectId, outcome, summary) {
    if (outcome !== "approved") return;
    const p = summary.price;
    if (!p) {
      // Held before the summary named old and new prices: the new price alone.
      if (summary.unitPrice !== undefined)
        await db
          .update(products)
          .set({ price: summary.unitPrice.toFixed(2), updatedAt: new Date() })
          .where(eq(products.id, subjectId));
      return;
    }
    // Applied only over the price and tiers it was asked against, and it becomes the new reference.
    const tiers = summary.tiers;
    const newPrice = p.new.amount.toFixed(2);
    const [done] = await db
      .update(products)
      .set({
        price: newPrice,
        currency: p.new.currency,
        referencePrice: newPrice,
        referenceCurrency: p.new.currency,
        ...(tiers ? { priceTiers: storedTiers(tiers.new) } : {}),
        updatedAt: new Date(),
      })
      .where(
        and(
          eq(products.id, subjectId),
          eq(products.price, p.old.amount.toFixed(2)),
          eq(products.currency, p.old.currency),
          isNull(products.deletedAt),
          tiers
            ? and(
                sql`${products.priceTiers} = ${JSON.stringify(storedTiers(tiers.old))}::jsonb`,
                // The moq may have moved meanwhile: the new tiers must still start above it.
                tiers.new.length ? sql`${products.moq} < ${tiers.new[0]!.minQty}` : undefined,
              )
            : // Asked before tiers existed: the new price must stay above the tiers added since.
              sql`coalesce((${products.priceTiers} -> 0 ->> 'unitPrice')::numeric < ${newPrice}::numeric, true)`,
        ),
      )
      .returning({ id: products.id });
    if (!done) {
      throw new ApiError(
        "invalid_state",
        `The product's price${tiers ? " or price tiers" : ""} changed since this change was asked against ${p.old.amount} ${p.old.currency} (or the product was deleted); reject it`,
      );
    }
  },
};

/** Hold an AI account's action for its guardian. Call inside the action's transaction. */
export async function requestApproval(ctx: Ctx<AiActor>, input: { kind: ApprovalKind; subjectId: string; summary: ApprovalSummary; reason?: string | null }) {
  const { db, actor, ip } = ctx;
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
    ip,
    success: true,
  });
  await approvalRequested(db, row!);
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

/**
 * The guardian's approvals, newest first; with `aiUserId` only that agent's (what an AI account sees
 * of its own held items: the agent reads them, only the guardian decides them).
 */
export async function listApprovals(
  db: Db,
  guardianId: string,
  f: { status?: "pending" | "approved" | "rejected" | "expired"; page: number; limit: number; aiUserId?: string },
) {
  await expireDueApprovals(db, guardianId);
  const where = and(
    eq(approvals.guardianId, guardianId),
    f.aiUserId ? eq(approvals.aiUserId, f.aiUserId) : undefined,
    f.status ? eq(approvals.status, f.status) : undefined,
  );
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
    const decided = await transition(tx, "approval", id, {
      from: ["pending"],
      to: decision,
      set: { decidedAt: new Date() },
      scope: eq(approvals.guardianId, guardianId),
    });
    // In the same transaction: a release that cannot happen undoes the decision too.
    await APPLY[decided.kind](tx, decided.subjectId, decision, decided.summary as ApprovalSummary);
    await approvalDecided(tx, decided, decision);
    // The request is answered: its notification no longer waits in the guardian's bell.
    await markSubjectRead(tx, guardianId, "approval", decided.id);
    return view(decided);
  });
}
