// Orders (contract 5): placed -> confirmed -> fulfilled, or cancelled; an AI_BUYER order over its
// mandate starts as pending_guardian_approval, invisible to the store until the guardian approves it
// (then `placed`, stamped `placedAt`); one that never reached the store stays invisible to it.
import { and, count, desc, eq, inArray, isNotNull } from "drizzle-orm";
import { permissionRefusal } from "@/lib/gate/gate";
import { ApiError, notFound } from "@/lib/errors";
import { actingSellerProfileId, type SignedInActor } from "@/lib/auth/actor";
import type { Db } from "@/lib/db/client";
import { orders, products } from "@/lib/db/schema";
import { MONEY_MAX } from "@/lib/schemas/common";
import { requestApproval } from "@/lib/services/ai/approvals";
import { assertNotSelfTrade } from "@/lib/services/ai/conduct";
import { buyerMandateRule, type MandateHold } from "@/lib/services/ai/mandate";
import { unitPriceFor } from "@/lib/services/catalog/price-tiers";
import { transition } from "@/lib/services/state/transition";
import { orderChanged } from "@/lib/services/notify/events";
import { settleAcceptance } from "./offer-holds";
import type { Ctx } from "@/lib/gate/context";
import { assertNotOwnStore, defaultSide, multiply, parties, signedIn, stores, tradableProduct } from "./common";

type Row = typeof orders.$inferSelect;

/** `viewer` is whose side each order is told from (`side`). */
async function views(db: Db, viewer: SignedInActor, rows: Row[]) {
  if (!rows.length) return [];
  const [prods, people, shops] = await Promise.all([
    db
      .select({ id: products.id, title: products.title })
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
  const titles = new Map(prods.map((p) => [p.id, p]));
  return rows.map((r) => ({
    id: r.id,
    productId: r.productId,
    product: titles.get(r.productId) ?? { id: r.productId, title: "" },
    buyerId: r.buyerId,
    buyer: people.get(r.buyerId) ?? { id: r.buyerId, username: "", isAI: false },
    sellerId: r.sellerId,
    seller: { id: r.sellerId, companyName: shops.get(r.sellerId)?.companyName ?? "" },
    quantity: r.quantity,
    unitPrice: Number(r.unitPrice),
    currency: r.currency,
    total: Number(r.total),
    note: r.note,
    offerId: r.offerId,
    status: r.status,
    side: r.buyerId === viewer.user.id ? ("buyer" as const) : ("seller" as const),
    sentByAI: r.sentByAI,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }));
}

/** `now` is the order's creation time, the moment its mandate windows (24 hours, month) end at. */
export async function placeOrder(ctx: Ctx, input: { productId: string; quantity: number; note?: string; reason?: string }, now = new Date()) {
  const { db, actor } = ctx;
  const me = signedIn(actor);
  const product = await tradableProduct(db, input.productId);
  await assertMayBuyFrom(ctx, me, product.sellerId);
  if (input.quantity < product.moq) {
    throw new ApiError("validation_failed", `The minimum order for this product is ${product.moq}`, {
      errors: [{ path: "quantity", message: `At least ${product.moq}` }],
    });
  }
  return createOrder(
    ctx,
    { product, quantity: input.quantity, unitPrice: unitPriceFor(product, input.quantity), currency: product.currency, note: input.note, reason: input.reason },
    now,
  );
}

/** A human may not buy from their own store; an AI account not from its guardian's or sibling (403). */
export async function assertMayBuyFrom(ctx: Ctx, me: SignedInActor, storeId: string) {
  assertNotOwnStore(me, storeId);
  await assertNotSelfTrade(ctx, { sellerProfileId: storeId });
}

export type OrderTerms = {
  product: typeof products.$inferSelect;
  quantity: number;
  unitPrice: string;
  currency: string;
  note?: string;
  reason?: string;
  /** The accepted offer the terms come from (contract 9.4). */
  offerId?: string;
};

/**
 * The one path every order is written by (a catalog order, an accepted offer): the total, the
 * buyer's mandate (an AI_BUYER's order over its limits is held with an approval) and the row. The
 * caller has checked who may buy what; `now` is the order's creation time.
 */
export async function createOrder(ctx: Ctx, terms: OrderTerms, now = new Date()) {
  const { db, actor } = ctx;
  const me = signedIn(actor);
  const { product, quantity, unitPrice, currency } = terms;
  const total = multiply(unitPrice, quantity);
  // Both factors are in range on their own; their product may not fit the column (a 500 before).
  if (Number(total) > MONEY_MAX) {
    throw new ApiError("validation_failed", `The order total would exceed ${MONEY_MAX}: order fewer`, {
      errors: [{ path: "quantity", message: `The total (quantity x ${unitPrice}) must not exceed ${MONEY_MAX}` }],
    });
  }
  const hold = me.type === "ai" ? await buyerMandateRule({ db, actor: me }, { total, currency, storeId: product.sellerId }, now) : null;
  // The order and whom it notifies (the store, or the guardian of a held one) commit together.
  return db.transaction((tx) => writeOrder({ ...ctx, db: tx }, me, terms, total, hold, now));
}

async function writeOrder(ctx: Ctx, me: SignedInActor, terms: OrderTerms, total: string, hold: MandateHold | null, now: Date) {
  const { db } = ctx;
  const { product, quantity, unitPrice, currency } = terms;
  const [row] = await db
    .insert(orders)
    .values({
      productId: product.id,
      buyerId: me.user.id,
      sellerId: product.sellerId,
      quantity,
      unitPrice,
      currency,
      total,
      note: terms.note ?? null,
      offerId: terms.offerId ?? null,
      status: hold ? "pending_guardian_approval" : "placed",
      sentByAI: me.type === "ai",
      placedAt: hold ? null : now,
      createdAt: now,
    })
    .returning();
  let pendingApproval: { id: string; rule: string } | undefined;
  if (hold && me.type === "ai") {
    const shop = (await stores(db, [product.sellerId])).get(product.sellerId);
    const a = await requestApproval(
      { ...ctx, actor: me },
      {
        kind: "order",
        subjectId: row!.id,
        summary: {
          item: product.title,
          productId: product.id,
          quantity,
          unitPrice: Number(unitPrice),
          total: Number(total),
          currency,
          counterparty: { id: product.sellerId, name: shop?.companyName ?? "" },
          rule: hold.rule,
          ruleCode: hold.limit,
          ruleParams: hold.params,
          converted: { amount: Number(hold.convertedTotal), currency: hold.mandateCurrency },
          ...(terms.offerId ? { offerId: terms.offerId } : {}),
        },
        reason: terms.reason,
      },
    );
    pendingApproval = { id: a.id, rule: hold.rule };
  } else await orderChanged(db, row!, "buyer");
  return { order: (await views(db, me, [row!]))[0]!, ...(pendingApproval ? { pendingApproval } : {}) };
}

/**
 * The orders a store sees: held orders are invisible to it until the buyer's guardian approves them;
 * rejected and expired ones (and held ones the buyer cancelled) never reach it.
 */
export const storeOrders = (store: string) => and(eq(orders.sellerId, store), isNotNull(orders.placedAt));

function sideWhere(me: SignedInActor, as: "buyer" | "seller") {
  if (as === "buyer") return eq(orders.buyerId, me.user.id);
  const store = actingSellerProfileId(me);
  if (!store) throw new ApiError("seller_profile_required", "Open a store (seller profile) first");
  return storeOrders(store);
}

export async function listOrders(ctx: Ctx, q: { as?: "buyer" | "seller"; status?: Row["status"]; page: number; limit: number }) {
  const { db, actor } = ctx;
  const me = signedIn(actor);
  const where = and(sideWhere(me, q.as ?? defaultSide(me)), q.status ? eq(orders.status, q.status) : undefined);
  const rows = await db
    .select()
    .from(orders)
    .where(where)
    .orderBy(desc(orders.createdAt))
    .limit(q.limit)
    .offset((q.page - 1) * q.limit);
  const [n] = await db.select({ n: count() }).from(orders).where(where);
  return { orders: await views(db, me, rows), page: q.page, limit: q.limit, total: Number(n?.n ?? 0) };
}

/** The order and which side the caller is on; 404 for anyone else (and for a store, held orders). */
async function participantOrder(db: Db, me: SignedInActor, id: string) {
  const [row] = await db.select().from(orders).where(eq(orders.id, id));
  if (!row) throw notFound("Order");
  if (row.buyerId === me.user.id) return { row, side: "buyer" as const };
  if (actingSellerProfileId(me) === row.sellerId && row.placedAt !== null) return { row, side: "seller" as const };
  throw notFound("Order");
}

export async function getOrder(ctx: Ctx, id: string) {
  const { db, actor } = ctx;
  const me = signedIn(actor);
  const { row } = await participantOrder(db, me, id);
  return (await views(db, me, [row]))[0]!;
}

const TRANSITIONS = {
  confirm: { side: "seller", from: ["placed"], to: "confirmed" },
  fulfill: { side: "seller", from: ["confirmed"], to: "fulfilled" },
} as const;

export async function advanceOrder(ctx: Ctx, id: string, action: keyof typeof TRANSITIONS) {
  const { db, actor } = ctx;
  const me = signedIn(actor);
  const t = TRANSITIONS[action];
  const { side } = await participantOrder(db, me, id);
  if (side !== t.side) throw new ApiError("forbidden", `Only the store can ${action} an order`);
  const updated = await db.transaction(async (tx) => {
    const moved = await transition(tx, "order", id, { from: t.from, to: t.to });
    await orderChanged(tx, moved, "seller");
    return moved;
  });
  return (await views(db, me, [updated]))[0]!;
}

/**
 * The buyer cancels a held or placed order; the store a placed or confirmed one. An AI account needs
 * the permission of its side (order.place for the buyer, order.fulfill for the store).
 */
export async function cancelOrder(ctx: Ctx, id: string) {
  const { db, actor } = ctx;
  const me = signedIn(actor);
  const { side } = await participantOrder(db, me, id);
  // The permission depends on the side, known only now: the gate's rule, applied here.
  const refusal = permissionRefusal(me, side === "buyer" ? "order.place" : "order.fulfill");
  if (refusal) throw refusal;
  const from = side === "buyer" ? (["pending_guardian_approval", "placed"] as const) : (["placed", "confirmed"] as const);
  const updated = await db.transaction(async (tx) => {
    const moved = await transition(tx, "order", id, { from, to: "cancelled" });
    // An acceptance held with this order is withdrawn with it: the offer is open again (or expired).
    await settleAcceptance(tx, id, "rejected");
    // An order still held for the buyer's guardian never reached the store: nothing to tell it.
    if (side === "seller" || moved.placedAt !== null) await orderChanged(tx, moved, side);
    return moved;
  });
  return (await views(db, me, [updated]))[0]!;
}
