// Inquiries (contract 5): a buyer asks about a product (`new`), the store replies, optionally with a
// quote (`replied`), the buyer closes it (`closed`). An AI seller's deep discount waits for its
// guardian and stays invisible to the buyer until approved.
import { and, count, desc, eq, inArray } from "drizzle-orm";
import { ApiError, notFound } from "@/lib/errors";
import { actingSellerProfileId } from "@/lib/auth/actor";
import type { Db } from "@/lib/db/client";
import { inquiries, inquiryReplies, offers, products } from "@/lib/db/schema";
import { requestApproval } from "@/lib/services/ai/approvals";
import { assertNotSelfTrade } from "@/lib/services/ai/conduct";
import { referenceOf, sellerPriceRule } from "@/lib/services/ai/price-mandate";
import { holdState, transition } from "@/lib/services/state/transition";
import { inquiryCreated, inquiryReplied } from "@/lib/services/notify/events";
import type { Ctx } from "@/lib/gate/context";
import { assertNotOwnStore, parties, signedIn, stores, tradableProduct } from "./common";
import { offerFromReply } from "./offers";

type InquiryRow = typeof inquiries.$inferSelect;

async function views(db: Db, rows: InquiryRow[], side: "buyer" | "seller") {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const [replies, prods, people, shops] = await Promise.all([
    db.select().from(inquiryReplies).where(inArray(inquiryReplies.inquiryId, ids)).orderBy(inquiryReplies.createdAt),
    db
      .select({ id: products.id, title: products.title, price: products.price, currency: products.currency })
      .from(products)
      .where(
        inArray(
          products.id,
          rows.map((r) => r.productId),
        ),
      ),
    parties(
      db,
      rows.map((r) => r.buyerId),
    ),
    stores(
      db,
      rows.map((r) => r.sellerId),
    ),
  ]);
  const prodMap = new Map(prods.map((p) => [p.id, { ...p, price: Number(p.price) }]));
  // A quoted reply opened an offer: pages link it to its negotiation thread.
  const quoted = replies.filter((x) => x.quotedPrice !== null).map((x) => x.id);
  const offerRows = quoted.length ? await db.select({ id: offers.id, replyId: offers.replyId }).from(offers).where(inArray(offers.replyId, quoted)) : [];
  const offerOf = new Map(offerRows.map((o) => [o.replyId, o.id]));
  return rows.map((r) => ({
    id: r.id,
    productId: r.productId,
    product: prodMap.get(r.productId) ?? { id: r.productId, title: "", price: 0, currency: "" },
    sellerId: r.sellerId,
    seller: { id: r.sellerId, companyName: shops.get(r.sellerId)?.companyName ?? "" },
    buyerId: r.buyerId,
    buyer: people.get(r.buyerId) ?? { id: r.buyerId, username: "", isAI: false },
    message: r.message,
    status: r.status,
    sentByAI: r.sentByAI,
    createdAt: r.createdAt.toISOString(),
    // Held quotes are the store's business until the guardian approves them.
    replies: replies
      .filter((x) => x.inquiryId === r.id && (side === "seller" || x.status === "visible"))
      .map((x) => ({
        id: x.id,
        message: x.message,
        quotedPrice: x.quotedPrice === null ? null : Number(x.quotedPrice),
        currency: x.currency,
        offerId: offerOf.get(x.id) ?? null,
        sentByAI: x.sentByAI,
        status: x.status,
        createdAt: x.createdAt.toISOString(),
      })),
  }));
}

export async function createInquiry(ctx: Ctx, input: { productId: string; message: string }) {
  const { db, actor } = ctx;
  const me = signedIn(actor);
  const product = await tradableProduct(db, input.productId);
  assertNotOwnStore(me, product.sellerId);
  await assertNotSelfTrade(ctx, { sellerProfileId: product.sellerId });
  // The store learns of it in the same transaction (contract 9.4): no inquiry, no notification.
  const row = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(inquiries)
      .values({ productId: product.id, sellerId: product.sellerId, buyerId: me.user.id, message: input.message, sentByAI: me.type === "ai" })
      .returning();
    await inquiryCreated(tx, created!);
    return created!;
  });
  return (await views(db, [row], "buyer"))[0]!;
}

type ListQ = { status?: "new" | "replied" | "closed"; page: number; limit: number };

async function list(db: Db, where: ReturnType<typeof and>, q: ListQ, side: "buyer" | "seller") {
  const full = and(where, q.status ? eq(inquiries.status, q.status) : undefined);
  const rows = await db
    .select()
    .from(inquiries)
    .where(full)
    .orderBy(desc(inquiries.createdAt))
    .limit(q.limit)
    .offset((q.page - 1) * q.limit);
  const [n] = await db.select({ n: count() }).from(inquiries).where(full);
  return { inquiries: await views(db, rows, side), page: q.page, limit: q.limit, total: Number(n?.n ?? 0) };
}

export function listBuyerInquiries(ctx: Ctx, q: ListQ) {
  return list(ctx.db, eq(inquiries.buyerId, signedIn(ctx.actor).user.id), q, "buyer");
}

export function listSellerInquiries(ctx: Ctx, q: ListQ) {
  const store = actingSellerProfileId(signedIn(ctx.actor));
  if (!store) throw new ApiError("seller_profile_required", "Open a store (seller profile) first");
  return list(ctx.db, eq(inquiries.sellerId, store), q, "seller");
}

export async function closeInquiry(ctx: Ctx, id: string) {
  const { db, actor } = ctx;
  const me = signedIn(actor);
  const updated = await transition(db, "inquiry", id, { from: ["new", "replied"], to: "closed", scope: eq(inquiries.buyerId, me.user.id) });
  return (await views(db, [updated], "buyer"))[0]!;
}

export async function respondInquiry(
  ctx: Ctx,
  id: string,
  input: { message: string; quotedPrice?: number; currency?: string; quantity?: number; reason?: string },
) {
  const me = signedIn(ctx.actor);
  const store = actingSellerProfileId(me);
  if (!store) throw notFound("Inquiry");
  // One transaction holding the inquiry open: a close arriving meanwhile waits and comes after the reply.
  return ctx.db.transaction(async (tx) => {
    const row = await holdState(tx, "inquiry", id, { from: ["new", "replied"], scope: eq(inquiries.sellerId, store), verb: "answered" });
    await assertNotSelfTrade({ db: tx, actor: me }, { userId: row.buyerId });
    const [product] = await tx.select().from(products).where(eq(products.id, row.productId));
    const currency = input.currency ?? product?.currency ?? null;
    // A quote is a price: measured against the product's reference in one currency (contract 9.2).
    const quoted = input.quotedPrice === undefined || !product || !currency ? null : { amount: input.quotedPrice.toFixed(2), currency };
    const hold =
      me.type === "ai" && quoted && product
        ? await sellerPriceRule(
            { db: tx, actor: me },
            { amount: product.price, currency: product.currency },
            referenceOf(product),
            quoted,
            input.currency === undefined ? "quotedPrice" : "currency",
          )
        : null;
    const [reply] = await tx
      .insert(inquiryReplies)
      .values({
        inquiryId: row.id,
        authorId: me.user.id,
        message: input.message,
        quotedPrice: input.quotedPrice === undefined ? null : input.quotedPrice.toFixed(2),
        currency: input.quotedPrice === undefined ? null : currency,
        status: hold ? "pending_guardian_approval" : "visible",
        sentByAI: me.type === "ai",
      })
      .returning();
    // A quoted price is also an offer in the inquiry's thread (contract 9.4), held with the reply.
    const offer = await offerFromReply(tx, me, row, reply!, input.quantity);
    let pendingApproval: { id: string; rule: string } | undefined;
    let fresh = row;
    if (hold && me.type === "ai" && product) {
      const buyer = (await parties(tx, [row.buyerId])).get(row.buyerId);
      const summary = {
        item: product.title,
        productId: product.id,
        listPrice: Number(product.price),
        unitPrice: input.quotedPrice,
        currency: currency ?? undefined,
        counterparty: buyer ? { id: buyer.id, name: buyer.username } : undefined,
        ...hold,
        quote: { inquiryId: row.id, offerId: offer?.id, inquiryMessage: row.message, message: input.message },
      };
      const a = await requestApproval({ ...ctx, db: tx, actor: me }, { kind: "quote", subjectId: reply!.id, summary, reason: input.reason });
      pendingApproval = { id: a.id, rule: hold.rule };
    } else {
      fresh = await transition(tx, "inquiry", row.id, { from: ["new", "replied"], to: "replied", verb: "answered" });
      await inquiryReplied(tx, reply!.id);
    }
    return { inquiry: (await views(tx, [fresh], "seller"))[0]!, ...(pendingApproval ? { pendingApproval } : {}) };
  });
}
