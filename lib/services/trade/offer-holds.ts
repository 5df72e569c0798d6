// What a guardian's decision does to an offer (contract 9.4): an AI seller's offer held before it was
// sent, or an AI buyer's acceptance held with its order. Kept apart from ./offers.ts so the approvals
// module can call it without importing the verbs that request approvals.
import { and, eq, ne } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { offers, offerThreads, orders } from "@/lib/db/schema";
import { transition, transitionIfStill } from "@/lib/services/state/transition";
import { offerChanged } from "@/lib/services/notify/events";

type Outcome = "approved" | "rejected" | "expired";

/** A new offer replaces the open one of its thread (and an acceptance still waiting on it). */
export async function supersedeOpen(db: Db, threadId: string, except?: string) {
  await db
    .update(offers)
    .set({ status: "superseded", heldFor: null, updatedAt: new Date() })
    .where(and(eq(offers.threadId, threadId), eq(offers.status, "open"), except ? ne(offers.id, except) : undefined));
  await db.update(offerThreads).set({ updatedAt: new Date() }).where(eq(offerThreads.id, threadId));
}

/**
 * An offer held before it was sent: approved, it is sent now (replacing the open one); rejected or
 * expired, it keeps its `send` mark and so never reaches the other side.
 */
export async function settleHeldOffer(db: Db, offerId: string, outcome: Outcome) {
  const scope = eq(offers.heldFor, "send");
  if (outcome !== "approved") {
    await transitionIfStill(db, "offer", offerId, { from: ["pending_guardian_approval"], to: outcome === "rejected" ? "declined" : "expired", scope });
    return;
  }
  const sent = await transition(db, "offer", offerId, { from: ["pending_guardian_approval"], to: "open", set: { heldFor: null }, scope, verb: "approved" });
  await supersedeOpen(db, sent.threadId, sent.id);
  // A quote on an inquiry tells its buyer through the released reply (approvalDecided).
  if (!sent.replyId) await offerChanged(db, sent, "new");
}

/**
 * An acceptance held with its order: approved, the offer is accepted (409 `invalid_state` when the
 * store replaced it meanwhile: the guardian then rejects); otherwise the offer is open again while
 * still valid, else expired.
 */
export async function settleAcceptance(db: Db, orderId: string, outcome: Outcome) {
  const [order] = await db.select({ offerId: orders.offerId }).from(orders).where(eq(orders.id, orderId));
  if (!order?.offerId) return;
  const scope = eq(offers.heldFor, "accept");
  if (outcome === "approved") {
    await transition(db, "offer", order.offerId, { from: ["pending_guardian_approval"], to: "accepted", set: { heldFor: null }, scope, verb: "accepted" });
    return;
  }
  const [offer] = await db.select({ validUntil: offers.validUntil }).from(offers).where(eq(offers.id, order.offerId));
  const to = offer && offer.validUntil > new Date() ? "open" : "expired";
  await transitionIfStill(db, "offer", order.offerId, { from: ["pending_guardian_approval"], to, set: { heldFor: null }, scope });
}
