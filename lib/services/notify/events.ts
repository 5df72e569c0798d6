// Who learns what (contract 9.4): the notifications the trade, chat and approval verbs send, each
// called inside the verb's transaction. The English titles are written here; pages translate them
// from `event` + `params` (messages/*.json, Notifications.events).
import { eq, inArray } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { inquiries, inquiryReplies, offers, offerThreads, orders, products, sellerProfiles, users } from "@/lib/db/schema";
import { chatHub } from "@/lib/realtime/hub";
import { notify, type NotifyInput } from "./notify";

type OrderRow = typeof orders.$inferSelect;

async function storeOf(db: Db, storeId: string) {
  const [s] = await db.select({ userId: sellerProfiles.userId, name: sellerProfiles.companyName }).from(sellerProfiles).where(eq(sellerProfiles.id, storeId));
  return s;
}

async function productTitle(db: Db, productId: string): Promise<string> {
  const [p] = await db.select({ title: products.title }).from(products).where(eq(products.id, productId));
  return p?.title ?? "";
}

async function username(db: Db, userId: string): Promise<string> {
  const [u] = await db.select({ username: users.username }).from(users).where(eq(users.id, userId));
  return u?.username ?? "";
}

/** A new inquiry: the store's owner. */
export async function inquiryCreated(db: Db, row: typeof inquiries.$inferSelect): Promise<void> {
  const [store, product, buyer] = [await storeOf(db, row.sellerId), await productTitle(db, row.productId), await username(db, row.buyerId)];
  if (!store) return;
  await notify(db, {
    userId: store.userId,
    kind: "inquiry",
    subjectId: row.id,
    title: `New inquiry from ${buyer} about ${product}`,
    body: row.message,
    link: "/seller/inquiries",
    event: "inquiry.new",
    params: { product, from: buyer },
  });
}

/** A reply the buyer can see (at once, or when the guardian released a held quote): the buyer. */
export async function inquiryReplied(db: Db, replyId: string): Promise<void> {
  const [r] = await db
    .select({ reply: inquiryReplies, inquiry: inquiries })
    .from(inquiryReplies)
    .innerJoin(inquiries, eq(inquiries.id, inquiryReplies.inquiryId))
    .where(eq(inquiryReplies.id, replyId));
  if (!r || r.reply.status !== "visible") return;
  const [store, product] = [await storeOf(db, r.inquiry.sellerId), await productTitle(db, r.inquiry.productId)];
  const quoted = r.reply.quotedPrice !== null ? `${Number(r.reply.quotedPrice).toFixed(2)} ${r.reply.currency ?? ""}`.trim() : "";
  await notify(db, {
    userId: r.inquiry.buyerId,
    kind: "inquiry",
    subjectId: r.inquiry.id,
    title: quoted ? `${store?.name ?? ""} quoted ${quoted} for ${product}` : `${store?.name ?? ""} replied to your inquiry about ${product}`,
    body: r.reply.message,
    link: "/buyer",
    event: quoted ? "inquiry.quoted" : "inquiry.replied",
    params: { product, store: store?.name ?? "", ...(quoted ? { price: quoted } : {}) },
  });
}

/**
 * An order reached the store (placed, or released by the buyer's guardian), or changed status:
 * the side that did not act. `by` is the side that acted (cancel: either).
 */
export async function orderChanged(db: Db, row: OrderRow, by: "buyer" | "seller"): Promise<void> {
  const [store, product] = [await storeOf(db, row.sellerId), await productTitle(db, row.productId)];
  const params = { product, quantity: row.quantity, status: row.status, store: store?.name ?? "" };
  if (by === "buyer") {
    if (!store) return;
    const placed = row.status === "placed";
    await notify(db, {
      userId: store.userId,
      kind: "order",
      subjectId: row.id,
      title: placed ? `New order: ${row.quantity} x ${product}` : `Order for ${row.quantity} x ${product} was ${row.status} by the buyer`,
      link: "/seller/orders",
      event: placed ? "order.placed" : `order.${row.status}`,
      params,
    });
    return;
  }
  await notify(db, {
    userId: row.buyerId,
    kind: "order",
    subjectId: row.id,
    title: `Your order for ${row.quantity} x ${product} was ${row.status} by ${store?.name ?? "the store"}`,
    link: "/buyer",
    event: `order.${row.status}`,
    params,
  });
}

type OfferRow = typeof offers.$inferSelect;

/**
 * An offer reached the other side of its thread (`new`: sent, or released by the guardian) or was
 * declined (`declined`: its author's side). An accepted offer is told by its order.
 */
export async function offerChanged(db: Db, offer: OfferRow, what: "new" | "declined"): Promise<void> {
  const [thread] = await db.select().from(offerThreads).where(eq(offerThreads.id, offer.threadId));
  if (!thread) return;
  const store = await storeOf(db, thread.sellerId);
  const product = offer.productId ? await productTitle(db, offer.productId) : "";
  const price = `${Number(offer.unitPrice).toFixed(2)} ${offer.currency}`;
  const toBuyer = (what === "new") === (offer.fromSide === "seller");
  const userId = toBuyer ? thread.buyerId : store?.userId;
  if (!userId) return;
  const from = toBuyer ? (store?.name ?? "") : await username(db, thread.buyerId);
  const params = { from, price, quantity: offer.quantity, product };
  await notify(db, {
    userId,
    kind: "offer",
    subjectId: offer.id,
    title: what === "new" ? `${from} offers ${offer.quantity} x ${product || "your request"} at ${price}` : `${from} declined your offer of ${price}`,
    body: what === "new" ? offer.message : undefined,
    link: toBuyer ? "/buyer" : "/seller/inquiries",
    event: `offer.${what}`,
    params,
  });
}

type ApprovalRow = { id: string; aiUserId: string; guardianId: string; kind: string; subjectId: string; summary: unknown };

/** An AI account's action waits for its guardian: the guardian, always (contract 9.4). */
export async function approvalRequested(db: Db, a: ApprovalRow): Promise<void> {
  const agent = await username(db, a.aiUserId);
  const item = (a.summary as { item?: string } | null)?.item ?? "";
  await notify(db, {
    userId: a.guardianId,
    kind: "approval",
    subjectId: a.id,
    title: `${agent} asks your approval: ${a.kind}${item ? ` of ${item}` : ""}`,
    link: "/seller/ai-accounts",
    event: "approval.requested",
    params: { agent, item, what: a.kind },
  });
}

/** The guardian decided (or it expired): the AI account; a release also tells the counterparty. */
export async function approvalDecided(db: Db, a: ApprovalRow, outcome: "approved" | "rejected" | "expired"): Promise<void> {
  const item = (a.summary as { item?: string } | null)?.item ?? "";
  const [agent] = await db.select({ role: users.role }).from(users).where(eq(users.id, a.aiUserId));
  await notify(db, {
    userId: a.aiUserId,
    kind: "approval",
    subjectId: a.id,
    title: `Your guardian ${outcome === "expired" ? "did not decide in time on" : outcome} your ${a.kind}${item ? ` of ${item}` : ""}`,
    link: agent?.role === "AI_SELLER" ? "/seller" : "/buyer",
    event: `approval.${outcome}`,
    params: { item, what: a.kind },
  });
  if (outcome !== "approved") return;
  if (a.kind === "order") {
    const [o] = await db.select().from(orders).where(eq(orders.id, a.subjectId));
    if (o) await orderChanged(db, o, "buyer");
  } else if (a.kind === "quote") await inquiryReplied(db, a.subjectId);
}

/**
 * Chat messages: the recipient only while it has no socket open on this instance (it sees the
 * message live otherwise), and one unread notification per conversation (coalesced), not one per
 * message. Presence is per instance: with several instances, a recipient connected elsewhere may
 * still get that one notification.
 */
export async function chatMessagesStored(db: Db, sent: { conversationId: string; from: string; to: string; content: string }[]): Promise<void> {
  const offline = sent.filter((m) => !chatHub.has(m.to));
  if (!offline.length) return;
  const names = new Map(
    (
      await db
        .select({ id: users.id, username: users.username })
        .from(users)
        .where(inArray(users.id, [...new Set(offline.map((m) => m.from))]))
    ).map((u) => [u.id, u.username]),
  );
  const seen = new Set<string>();
  const inputs: NotifyInput[] = [];
  for (const m of offline) {
    const key = `${m.to}:${m.conversationId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const from = names.get(m.from) ?? "";
    inputs.push({
      userId: m.to,
      kind: "message",
      subjectId: m.conversationId,
      title: `New message from ${from}`,
      body: m.content,
      link: `/chat?conversation=${encodeURIComponent(m.conversationId)}`,
      event: "message.new",
      params: { from },
      coalesce: true,
    });
  }
  await notify(db, inputs);
}
