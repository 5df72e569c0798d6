// A store's own analytics (contract 5): product views, inquiries and brochure downloads per day.
import { and, count, eq, gte, lte, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { ApiError } from "@/lib/errors";
import { requireStoreId, type Actor } from "@/lib/auth/actor";
import type { Db } from "@/lib/db/client";
import { booths, brochureDownloads, inquiries, orders, products, productViewCounts } from "@/lib/db/schema";
import { signedIn } from "@/lib/services/trade/common";
import { storeOrders } from "@/lib/services/trade/orders";
import type { Ctx } from "@/lib/gate/context";

const DAY = 86_400_000;

const store = (actor: Actor) => requireStoreId(signedIn(actor));

function range(q: { from?: Date; to?: Date }) {
  const to = q.to ?? new Date();
  const from = q.from ?? new Date(to.getTime() - 29 * DAY);
  if (to.getTime() - from.getTime() > 366 * DAY)
    throw new ApiError("validation_failed", "At most one year per request", { errors: [{ path: "from", message: "Range too long" }] });
  return { from, to };
}

/**
 * Per-day counts (UTC), every day of the range present, zeros included. `measure` is what a row adds: one by
 * default, or a column of counts (views are kept per product and minute, so a range's edges are exact to the
 * minute: a minute counts when it starts within the range).
 */
async function perDay(
  db: Db,
  table: PgTable,
  sellerCol: PgColumn,
  timeCol: PgColumn,
  sellerId: string,
  q: { from?: Date; to?: Date },
  extra?: SQL,
  measure: SQL<number> = count(),
) {
  const { from, to } = range(q);
  const day = sql<string>`to_char(${timeCol} at time zone 'UTC', 'YYYY-MM-DD')`;
  const rows = await db
    .select({ day, n: measure })
    .from(table)
    .where(and(eq(sellerCol, sellerId), gte(timeCol, from), lte(timeCol, to), extra))
    .groupBy(day);
  const byDay = new Map(rows.map((r) => [r.day, Number(r.n)]));
  const days: { date: string; count: number }[] = [];
  for (let t = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()); t <= to.getTime(); t += DAY) {
    const date = new Date(t).toISOString().slice(0, 10);
    days.push({ date, count: byDay.get(date) ?? 0 });
  }
  return { from: from.toISOString(), to: to.toISOString(), total: days.reduce((s, d) => s + d.count, 0), days };
}

// sum() of integers is a bigint, which the drivers hand over as a string (postgres.js) or a BigInt (PGlite).
const viewSum = sql<number>`coalesce(sum(${productViewCounts.views}), 0)`.mapWith(Number);

export function viewsPerDay(ctx: Ctx, q: { from?: Date; to?: Date }) {
  const v = productViewCounts;
  return perDay(ctx.db, v, v.sellerId, v.minute, store(ctx.actor), q, undefined, viewSum);
}

export async function inquiriesPerDay(ctx: Ctx, q: { from?: Date; to?: Date }) {
  const { db, actor } = ctx;
  const sellerId = store(actor);
  const series = await perDay(db, inquiries, inquiries.sellerId, inquiries.createdAt, sellerId, q);
  const { from, to } = range(q);
  const byStatus = await db
    .select({ status: inquiries.status, n: count() })
    .from(inquiries)
    .where(and(eq(inquiries.sellerId, sellerId), gte(inquiries.createdAt, from), lte(inquiries.createdAt, to)))
    .groupBy(inquiries.status);
  return { ...series, byStatus: Object.fromEntries(["new", "replied", "closed"].map((s) => [s, Number(byStatus.find((b) => b.status === s)?.n ?? 0)])) };
}

export function downloadsPerDay(ctx: Ctx, q: { from?: Date; to?: Date }) {
  return perDay(ctx.db, brochureDownloads, brochureDownloads.sellerId, brochureDownloads.createdAt, store(ctx.actor), q);
}

/** The seller dashboard's totals (contract 5). */
export async function dashboard(ctx: Ctx) {
  const { db, actor } = ctx;
  const sellerId = store(actor);
  const since = new Date(Date.now() - 30 * DAY);
  const n = async (q: Promise<{ n: number }[]>) => Number((await q)[0]?.n ?? 0);
  const [productCount, boothCount, publishedBooths, newInquiries, views30, downloads30, orderRows] = await Promise.all([
    n(
      db
        .select({ n: count() })
        .from(products)
        .where(and(eq(products.sellerId, sellerId), sql`${products.deletedAt} is null`)),
    ),
    n(db.select({ n: count() }).from(booths).where(eq(booths.sellerId, sellerId))),
    n(
      db
        .select({ n: count() })
        .from(booths)
        .where(and(eq(booths.sellerId, sellerId), eq(booths.isPublished, true))),
    ),
    n(
      db
        .select({ n: count() })
        .from(inquiries)
        .where(and(eq(inquiries.sellerId, sellerId), eq(inquiries.status, "new"))),
    ),
    n(
      db
        .select({ n: viewSum })
        .from(productViewCounts)
        .where(and(eq(productViewCounts.sellerId, sellerId), gte(productViewCounts.minute, since))),
    ),
    n(
      db
        .select({ n: count() })
        .from(brochureDownloads)
        .where(and(eq(brochureDownloads.sellerId, sellerId), gte(brochureDownloads.createdAt, since))),
    ),
    db.select({ status: orders.status, n: count() }).from(orders).where(storeOrders(sellerId)).groupBy(orders.status),
  ]);
  return {
    products: productCount,
    booths: boothCount,
    publishedBooths,
    newInquiries,
    ordersByStatus: Object.fromEntries(
      ["placed", "confirmed", "fulfilled", "cancelled", "rejected", "expired"].map((s) => [s, Number(orderRows.find((o) => o.status === s)?.n ?? 0)]),
    ),
    viewsLast30Days: views30,
    downloadsLast30Days: downloads30,
  };
}
