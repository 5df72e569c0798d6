// Offers (contract 9.4): stores quote on open requirements, a reply with a quoted price is an offer
// in its inquiry's thread, the side that received an open offer counters or declines it, and the
// buyer accepts a store's offer into an order at its terms. Every offer supersedes the open one of
// its thread; every status change is compare-and-set. The mandate holds an AI seller's offer too far
// below the product's reference price, and an AI buyer's acceptance above its limits.
import { eq } from "drizzle-orm";
import { actingSellerProfileId, type AiActor, type SignedInActor } from "@/lib/auth/actor";
import type { Db } from "@/lib/db/client";
import { inquiries, offers, offerThreads, products, requirements, type inquiryReplies } from "@/lib/db/schema";
import { ApiError, notFound } from "@/lib/errors";
import type { Ctx } from "@/lib/gate/context";
import { permissionRefusal } from "@/lib/gate/gate";
import { requestApproval } from "@/lib/services/ai/approvals";
import { assertNotOwnAgent, assertNotSelfTrade } from "@/lib/services/ai/conduct";
import { referenceOf, sellerPriceRule } from "@/lib/services/ai/price-mandate";
import { holdState, transition } from "@/lib/services/state/transition";
import { offerChanged } from "@/lib/services/notify/events";
import { MONEY_MAX } from "@/lib/schemas/common";
import { multiply, parties, signedIn, tradableProduct } from "./common";
import { supersedeOpen } from "./offer-holds";
import { expireDueOffers, offerView, threadView, type OfferRow, type Side, type ThreadRow } from "./offer-views";
import { assertMayBuyFrom, createOrder } from "./orders";

const DAY_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_VALIDITY_DAYS = 14;
export const MAX_VALIDITY_DAYS = 90;

type Terms = { unitPrice: number; quantity: number; message?: string; validUntil?: string; reason?: string };
type Pending = { id: string; rule: string };

function validity(input: string | undefined, now = new Date()): Date {
  if (input === undefined) return new Date(now.getTime() + DEFAULT_VALIDITY_DAYS * DAY_MS);
  const at = new Date(input);
  const problem =
    at <= now ? "Must be in the future" : at.getTime() - now.getTime() > MAX_VALIDITY_DAYS * DAY_MS ? `At most ${MAX_VALIDITY_DAYS} days ahead` : null;
  if (problem) throw new ApiError("validation_failed", `validUntil: ${problem}`, { errors: [{ path: "validUntil", message: problem }] });
  return at;
}

function assertTotalFits(unitPrice: number, quantity: number) {
  if (Number(multiply(unitPrice, quantity)) > MONEY_MAX) {
    const message = `unitPrice x quantity must not exceed ${MONEY_MAX}`;
    throw new ApiError("validation_failed", message, { errors: [{ path: "quantity", message }] });
  }
}

/** The caller's side in a thread, or null when it is none of its business. */
export function sideIn(me: SignedInActor, thread: ThreadRow): Side | null {
  if (thread.buyerId === me.user.id) return "buyer";
  if (actingSellerProfileId(me) === thread.sellerId) return "seller";
  return null;
}

/** An offer the caller may see with its thread and side; 404 otherwise (contract 1: never reveal it). */
export async function visibleOffer(db: Db, me: SignedInActor, id: string) {
  const [row] = await db
    .select({ offer: offers, thread: offerThreads })
    .from(offers)
    .innerJoin(offerThreads, eq(offerThreads.id, offers.threadId))
    .where(eq(offers.id, id));
  const side = row ? sideIn(me, row.thread) : null;
  if (!row || !side || (row.offer.heldFor === "send" && row.offer.fromSide !== side)) throw notFound("Offer");
  return { ...row, side };
}

type NewOffer = {
  side: Side;
  productId: string | null;
  unitPrice: number;
  currency: string;
  quantity: number;
  message: string;
  validUntil: Date;
  replyId?: string;
};
type Subject = { inquiryId?: string; requirementId?: string; text: string };

/**
 * Write one offer into `thread`. An AI seller's offer naming a product is measured against the
 * product's reference price (contract 9.2); held, it waits unseen by the buyer and replaces nothing
 * until its guardian approves. Without a product there is no reference, so it is not held.
 */
async function writeOffer(ctx: Ctx, me: SignedInActor, thread: ThreadRow, o: NewOffer, subject: Subject, reason?: string) {
  const { db } = ctx;
  const product = o.productId ? (await db.select().from(products).where(eq(products.id, o.productId)))[0] : undefined;
  const amount = o.unitPrice.toFixed(2);
  const hold =
    me.type === "ai" && o.side === "seller" && product
      ? await sellerPriceRule(
          { db, actor: me },
          { amount: product.price, currency: product.currency },
          referenceOf(product),
          { amount, currency: o.currency },
          "unitPrice",
        )
      : null;
  if (!hold) await supersedeOpen(db, thread.id);
  const [row] = await db
    .insert(offers)
    .values({
      threadId: thread.id,
      fromSide: o.side,
      authorId: me.user.id,
      productId: o.productId,
      unitPrice: amount,
      currency: o.currency,
      quantity: o.quantity,
      message: o.message,
      validUntil: o.validUntil,
      status: hold ? "pending_guardian_approval" : "open",
      heldFor: hold ? "send" : null,
      replyId: o.replyId ?? null,
      sentByAI: me.type === "ai",
    })
    .returning();
  let pendingApproval: Pending | undefined;
  if (hold && product && me.type === "ai") pendingApproval = await holdOffer({ ...ctx, actor: me }, thread, row!, product, hold, subject, reason);
  // The guardian of a held one heard through its approval request; an inquiry's reply tells its buyer itself.
  if (!hold && !o.replyId) await offerChanged(db, row!, "new");
  return { row: row!, pendingApproval };
}

async function holdOffer(
  ctx: Ctx<AiActor>,
  thread: ThreadRow,
  row: OfferRow,
  product: typeof products.$inferSelect,
  hold: NonNullable<Awaited<ReturnType<typeof sellerPriceRule>>>,
  subject: Subject,
  reason?: string,
): Promise<Pending> {
  const buyer = (await parties(ctx.db, [thread.buyerId])).get(thread.buyerId);
  const summary = {
    item: product.title,
    productId: product.id,
    listPrice: Number(product.price),
    unitPrice: Number(row.unitPrice),
    quantity: row.quantity,
    total: Number(multiply(row.unitPrice, row.quantity)),
    currency: row.currency,
    counterparty: buyer ? { id: buyer.id, name: buyer.username } : undefined,
    ...hold,
    quote: { inquiryId: subject.inquiryId, requirementId: subject.requirementId, offerId: row.id, inquiryMessage: subject.text, message: row.message },
  };
  const a = await requestApproval(ctx, { kind: "quote", subjectId: row.id, summary, reason });
  return { id: a.id, rule: hold.rule };
}

/** A store quotes on an open purchase requirement: its (requirement, store) thread gets a new offer. */
export async function quoteRequirement(ctx: Ctx, requirementId: string, input: Terms & { currency: string; productId?: string }) {
  const me = signedIn(ctx.actor);
  const store = actingSellerProfileId(me);
  if (!store) throw new ApiError("seller_profile_required", "Quotes come from stores: open a store (seller profile) first");
  const validUntil = validity(input.validUntil);
  assertTotalFits(input.unitPrice, input.quantity);
  return ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx };
    // Held open while quoting: a close arriving meanwhile comes after the quote.
    const req = await holdState(tx, "requirement", requirementId, { from: ["open"], verb: "quoted" });
    if (req.buyerId === me.user.id) throw new ApiError("forbidden", "You cannot quote on your own requirement");
    await assertNotSelfTrade(t, { userId: req.buyerId });
    await assertNotOwnAgent(t, req.buyerId);
    if (input.productId) {
      const p = await tradableProduct(tx, input.productId);
      if (p.sellerId !== store) throw notFound("Product");
    }
    const [thread] = await tx
      .insert(offerThreads)
      .values({ requirementId: req.id, sellerId: store, buyerId: req.buyerId })
      .onConflictDoUpdate({ target: [offerThreads.requirementId, offerThreads.sellerId], set: { updatedAt: new Date() } })
      .returning();
    const subject = { requirementId: req.id, text: [req.title, req.description].filter(Boolean).join("\n\n") };
    const o = { side: "seller" as const, productId: input.productId ?? null, ...input, message: input.message ?? "", validUntil };
    const { row, pendingApproval } = await writeOffer(t, me, thread!, o, subject, input.reason);
    return { offer: offerView(row, "seller"), ...(pendingApproval ? { pendingApproval } : {}) };
  });
}

type ReplyRow = typeof inquiryReplies.$inferSelect;

/**
 * A store's reply with a quoted price is an offer in its inquiry's thread (for the inquiry's product,
 * `quantity` units, 1 unless given). A held reply holds its offer with it: one approval releases both.
 */
export async function offerFromReply(tx: Db, me: SignedInActor, inquiry: typeof inquiries.$inferSelect, reply: ReplyRow, quantity = 1) {
  if (reply.quotedPrice === null || reply.currency === null) return null;
  const [thread] = await tx
    .insert(offerThreads)
    .values({ inquiryId: inquiry.id, sellerId: inquiry.sellerId, buyerId: inquiry.buyerId })
    .onConflictDoUpdate({ target: offerThreads.inquiryId, set: { updatedAt: new Date() } })
    .returning();
  const held = reply.status === "pending_guardian_approval";
  if (!held) await supersedeOpen(tx, thread!.id);
  const [row] = await tx
    .insert(offers)
    .values({
      threadId: thread!.id,
      fromSide: "seller",
      authorId: me.user.id,
      productId: inquiry.productId,
      unitPrice: reply.quotedPrice,
      currency: reply.currency,
      quantity,
      message: reply.message,
      validUntil: validity(undefined),
      status: held ? "pending_guardian_approval" : "open",
      heldFor: held ? "send" : null,
      replyId: reply.id,
      sentByAI: reply.sentByAI,
    })
    .returning();
  return row!;
}

/** Offers are answered by the side that received them; an AI account's side is its role. */
function refuseWithoutSidePermission(me: SignedInActor) {
  if (me.type !== "ai") return;
  const refusal = permissionRefusal(me, me.user.role === "AI_SELLER" ? "inquiry.respond" : "inquiry.create");
  if (refusal) throw refusal;
}

async function receivedOpenOffer(db: Db, me: SignedInActor, id: string, verb: string) {
  await expireDueOffers(db);
  const found = await visibleOffer(db, me, id);
  if (found.offer.fromSide === found.side) throw new ApiError("forbidden", `Only the side that received this offer can ${verb} it`);
  return found;
}

async function subjectOf(db: Db, thread: ThreadRow): Promise<Subject> {
  if (thread.inquiryId) {
    const [i] = await db.select({ message: inquiries.message }).from(inquiries).where(eq(inquiries.id, thread.inquiryId));
    return { inquiryId: thread.inquiryId, text: i?.message ?? "" };
  }
  const [r] = await db
    .select({ title: requirements.title, description: requirements.description })
    .from(requirements)
    .where(eq(requirements.id, thread.requirementId!));
  return { requirementId: thread.requirementId!, text: [r?.title, r?.description].filter(Boolean).join("\n\n") };
}

/** The receiving side answers an open offer with its own terms (same product and currency). */
export async function counterOffer(ctx: Ctx, id: string, input: Terms) {
  const me = signedIn(ctx.actor);
  refuseWithoutSidePermission(me);
  const validUntil = validity(input.validUntil);
  assertTotalFits(input.unitPrice, input.quantity);
  return ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx };
    const { offer, thread, side } = await receivedOpenOffer(tx, me, id, "counter");
    await assertNotSelfTrade(t, side === "buyer" ? { sellerProfileId: thread.sellerId } : { userId: thread.buyerId });
    // Compare-and-set: of two answers to one offer exactly one wins (the other: 409 invalid_state).
    await holdState(tx, "offer", offer.id, { from: ["open"], verb: "countered" });
    const o = { side, productId: offer.productId, currency: offer.currency, ...input, message: input.message ?? "", validUntil };
    const { row, pendingApproval } = await writeOffer(t, me, thread, o, await subjectOf(tx, thread), input.reason);
    return { offer: offerView(row, side), ...(pendingApproval ? { pendingApproval } : {}) };
  });
}

export async function declineOffer(ctx: Ctx, id: string) {
  const me = signedIn(ctx.actor);
  refuseWithoutSidePermission(me);
  const { offer, side } = await receivedOpenOffer(ctx.db, me, id, "decline");
  const row = await ctx.db.transaction(async (tx) => {
    const declined = await transition(tx, "offer", offer.id, { from: ["open"], to: "declined", verb: "declined" });
    await offerChanged(tx, declined, "declined");
    return declined;
  });
  return { offer: offerView(row, side) };
}

/**
 * The buyer accepts a store's open offer: an order at the offer's unit price, quantity and currency,
 * placed by the same path as POST /api/orders (the buyer mandate included). Exactly once: the offer
 * moves from open by compare-and-set before the order is written, in one transaction.
 */
export async function acceptOffer(ctx: Ctx, id: string, input: { reason?: string } = {}) {
  const me = signedIn(ctx.actor);
  const now = new Date();
  await expireDueOffers(ctx.db);
  const found = await visibleOffer(ctx.db, me, id);
  if (found.side !== "buyer" || found.offer.fromSide !== "seller") throw new ApiError("forbidden", "Only the buyer accepts, and only an offer from the store");
  if (found.offer.status === "expired")
    throw new ApiError("offer_expired", `This offer expired at ${found.offer.validUntil.toISOString()}: ask the store for a new one`);
  const productId = found.offer.productId ?? (await inquiryProduct(ctx.db, found.thread));
  if (!productId) {
    throw new ApiError(
      "offer_not_orderable",
      "This quote names no product, so there is nothing to order: ask the store to quote again with one of its products (productId)",
    );
  }
  return ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx };
    const product = await tradableProduct(tx, productId);
    await assertMayBuyFrom(t, me, found.thread.sellerId);
    const accepted = await transition(tx, "offer", id, { from: ["open"], to: "accepted", verb: "accepted" });
    const placed = await createOrder(
      t,
      { product, quantity: accepted.quantity, unitPrice: accepted.unitPrice, currency: accepted.currency, offerId: accepted.id, reason: input.reason },
      now,
    );
    // Held: the guardian decides, and the store sees the offer still open until then (offer-holds.ts).
    const offer = placed.pendingApproval
      ? (await tx.update(offers).set({ status: "pending_guardian_approval", heldFor: "accept" }).where(eq(offers.id, id)).returning())[0]!
      : accepted;
    // Who hears of it: the store through the placed order, or the guardian through the approval request.
    return { offer: offerView(offer, "buyer"), order: placed.order, ...(placed.pendingApproval ? { pendingApproval: placed.pendingApproval } : {}) };
  });
}

async function inquiryProduct(db: Db, thread: ThreadRow): Promise<string | null> {
  if (!thread.inquiryId) return null;
  const [i] = await db.select({ productId: inquiries.productId }).from(inquiries).where(eq(inquiries.id, thread.inquiryId));
  return i?.productId ?? null;
}

/** One offer with its whole thread as the caller's side sees it (GET /api/offers/:id). */
export async function getOffer(ctx: Ctx, id: string) {
  const me = signedIn(ctx.actor);
  await expireDueOffers(ctx.db);
  const { offer, thread, side } = await visibleOffer(ctx.db, me, id);
  return { offer: offerView(offer, side), thread: await threadView(ctx.db, thread, side) };
}
