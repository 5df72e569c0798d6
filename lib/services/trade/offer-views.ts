// What each side sees of offers and threads (contract 9.4): a thread only by its buyer and its
// store; an offer held before it was sent only by its own side; an acceptance waiting for the
// buyer's guardian reads `open` to the store (held items are invisible to the counterparty).
import { and, count, desc, eq, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import { actingSellerProfileId } from "@/lib/auth/actor";
import type { Db } from "@/lib/db/client";
import { inquiries, offers, offerThreads, products, requirements } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";
import type { Ctx } from "@/lib/gate/context";
import { BASE_CURRENCY, convertWith, loadRates } from "@/lib/money/convert";
import { multiply, parties, signedIn, stores } from "./common";

export type OfferRow = typeof offers.$inferSelect;
export type ThreadRow = typeof offerThreads.$inferSelect;
export type Side = "buyer" | "seller";

/** Offers past their validUntil read as expired: swept before reads and decisions (as approvals are). */
export async function expireDueOffers(db: Db): Promise<void> {
  await db
    .update(offers)
    .set({ status: "expired", updatedAt: new Date() })
    .where(and(eq(offers.status, "open"), lt(offers.validUntil, new Date())));
}

export function visibleTo(o: OfferRow, side: Side): boolean {
  return o.heldFor !== "send" || o.fromSide === side;
}

export function offerView(o: OfferRow, side: Side) {
  const status = side === "seller" && o.heldFor === "accept" ? "open" : o.status;
  return {
    id: o.id,
    threadId: o.threadId,
    from: o.fromSide,
    productId: o.productId,
    unitPrice: Number(o.unitPrice),
    currency: o.currency,
    quantity: o.quantity,
    total: Number(multiply(o.unitPrice, o.quantity)),
    message: o.message,
    validUntil: o.validUntil.toISOString(),
    status,
    side,
    awaitingYou: status === "open" && o.fromSide !== side && !(side === "buyer" && o.heldFor === "accept"),
    sentByAI: o.sentByAI,
    createdAt: o.createdAt.toISOString(),
  };
}

/** Threads as each side sees them, without their offers. */
async function threadHeads(db: Db, rows: { thread: ThreadRow; side: Side }[]) {
  const ts = rows.map((r) => r.thread);
  const inquiryIds = ts.flatMap((t) => (t.inquiryId ? [t.inquiryId] : []));
  const requirementIds = ts.flatMap((t) => (t.requirementId ? [t.requirementId] : []));
  const [people, shops, inq, reqs] = await Promise.all([
    parties(
      db,
      ts.map((t) => t.buyerId),
    ),
    stores(
      db,
      ts.map((t) => t.sellerId),
    ),
    inquiryIds.length
      ? db
          .select({ id: inquiries.id, title: products.title })
          .from(inquiries)
          .innerJoin(products, eq(products.id, inquiries.productId))
          .where(inArray(inquiries.id, inquiryIds))
      : Promise.resolve([]),
    requirementIds.length
      ? db.select({ id: requirements.id, title: requirements.title }).from(requirements).where(inArray(requirements.id, requirementIds))
      : Promise.resolve([]),
  ]);
  const titles = new Map([...inq, ...reqs].map((x) => [x.id, x.title]));
  return rows.map(({ thread: t, side }) => {
    const subjectId = t.inquiryId ?? t.requirementId ?? "";
    return {
      id: t.id,
      inquiryId: t.inquiryId,
      requirementId: t.requirementId,
      subject: { type: t.inquiryId ? ("inquiry" as const) : ("requirement" as const), id: subjectId, title: titles.get(subjectId) ?? "" },
      store: { id: t.sellerId, companyName: shops.get(t.sellerId)?.companyName ?? "" },
      buyer: people.get(t.buyerId) ?? { id: t.buyerId, username: "", isAI: false },
      side,
    };
  });
}

/** Where the caller is the buyer, or its store the seller (both unless `as` narrows). */
function partyWhere(ctx: Ctx, as?: Side): { buyer: SQL | undefined; seller: SQL | undefined; me: string; store: string | null } {
  const me = signedIn(ctx.actor);
  const store = actingSellerProfileId(me);
  const buyer =
    as === "seller" ? undefined : and(eq(offerThreads.buyerId, me.user.id), or(sql`${offers.heldFor} is distinct from 'send'`, eq(offers.fromSide, "buyer")));
  const seller =
    as === "buyer" || !store
      ? undefined
      : and(eq(offerThreads.sellerId, store), or(sql`${offers.heldFor} is distinct from 'send'`, eq(offers.fromSide, "seller")));
  return { buyer, seller, me: me.user.id, store };
}

/** The caller's offers, newest first, each with its thread (GET /api/offers). */
export async function listOffers(ctx: Ctx, q: { as?: Side; status?: OfferRow["status"]; page: number; limit: number }) {
  const { db } = ctx;
  await expireDueOffers(db);
  const p = partyWhere(ctx, q.as);
  const access = or(p.buyer, p.seller) ?? sql`false`;
  // The status each side reads: an acceptance held for the buyer's guardian is still open to the store.
  const shown = sql`case when ${offerThreads.buyerId} <> ${p.me} and ${offers.heldFor} = 'accept' then 'open' else ${offers.status} end`;
  const where = and(access, q.status ? sql`${shown} = ${q.status}` : undefined);
  const rows = await db
    .select({ offer: offers, thread: offerThreads })
    .from(offers)
    .innerJoin(offerThreads, eq(offerThreads.id, offers.threadId))
    .where(where)
    .orderBy(desc(offers.createdAt), desc(offers.id))
    .limit(q.limit)
    .offset((q.page - 1) * q.limit);
  const [n] = await db.select({ n: count() }).from(offers).innerJoin(offerThreads, eq(offerThreads.id, offers.threadId)).where(where);
  const withSide = rows.map((r) => ({ ...r, side: (r.thread.buyerId === p.me ? "buyer" : "seller") as Side }));
  const heads = await threadHeads(db, withSide);
  return {
    offers: withSide.map((r, i) => ({ ...offerView(r.offer, r.side), thread: heads[i]! })),
    page: q.page,
    limit: q.limit,
    total: Number(n?.n ?? 0),
  };
}

/** One thread with the offers `side` may see, oldest first. */
export async function threadView(db: Db, thread: ThreadRow, side: Side) {
  const rows = await db.select().from(offers).where(eq(offers.threadId, thread.id)).orderBy(offers.createdAt, offers.id);
  const [head] = await threadHeads(db, [{ thread, side }]);
  return { ...head!, offers: rows.filter((o) => visibleTo(o, side)).map((o) => offerView(o, side)) };
}

/**
 * The quotes of one of the buyer's requirements side by side (GET /api/buyer/requirements/:id/quotes):
 * each store's thread with its latest offer the buyer may see, converted to the requirement's
 * currency (USD without one) at the reference rates.
 */
export async function compareQuotes(ctx: Ctx, requirementId: string) {
  const { db } = ctx;
  const me = signedIn(ctx.actor);
  const [req] = await db
    .select()
    .from(requirements)
    .where(and(eq(requirements.id, requirementId), eq(requirements.buyerId, me.user.id)));
  if (!req) throw notFound("Requirement");
  await expireDueOffers(db);
  const threads = await db.select().from(offerThreads).where(eq(offerThreads.requirementId, req.id)).orderBy(offerThreads.createdAt);
  const all = threads.length
    ? await db
        .select()
        .from(offers)
        .where(
          inArray(
            offers.threadId,
            threads.map((t) => t.id),
          ),
        )
        .orderBy(offers.createdAt, offers.id)
    : [];
  const latest = new Map<string, OfferRow>();
  for (const o of all) if (visibleTo(o, "buyer")) latest.set(o.threadId, o);
  const target = req.currency ?? BASE_CURRENCY;
  const rates = await loadRates(db, [target, ...[...latest.values()].map((o) => o.currency)]);
  const productIds = [...latest.values()].flatMap((o) => (o.productId ? [o.productId] : []));
  const prods = productIds.length
    ? await db.select({ id: products.id, title: products.title, moq: products.moq }).from(products).where(inArray(products.id, productIds))
    : [];
  const prodMap = new Map(prods.map((p) => [p.id, p]));
  const heads = await threadHeads(
    db,
    threads.map((thread) => ({ thread, side: "buyer" as const })),
  );
  const convert = (amount: string | number, from: string) => {
    try {
      return Number(convertWith(rates, amount, from, target));
    } catch {
      return null;
    }
  };
  return {
    requirement: { id: req.id, title: req.title, quantity: req.quantity, budget: req.budget === null ? null : Number(req.budget), currency: req.currency },
    currency: target,
    quotes: threads.map((t, i) => {
      const o = latest.get(t.id);
      const unit = o ? convert(o.unitPrice, o.currency) : null;
      const total = o ? convert(multiply(o.unitPrice, o.quantity), o.currency) : null;
      return {
        threadId: t.id,
        store: heads[i]!.store,
        product: o?.productId ? (prodMap.get(o.productId) ?? null) : null,
        offer: o ? offerView(o, "buyer") : null,
        converted: unit === null || total === null ? null : { unitPrice: unit, total },
      };
    }),
  };
}
