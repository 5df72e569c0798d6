// Shoutouts: short public posts, optionally about a product, in one public feed.
import { count, desc, inArray } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { products, shoutouts } from "@/lib/db/schema";
import { parties, signedIn, tradableProduct } from "@/lib/services/trade/common";
import type { Ctx } from "@/lib/gate/context";

type Row = typeof shoutouts.$inferSelect;

async function views(db: Db, rows: Row[]) {
  const people = await parties(
    db,
    rows.map((r) => r.userId),
  );
  const ids = rows.map((r) => r.productId).filter((x): x is string => !!x);
  const prods = ids.length ? await db.select({ id: products.id, title: products.title }).from(products).where(inArray(products.id, ids)) : [];
  const titles = new Map(prods.map((p) => [p.id, p]));
  return rows.map((r) => ({
    id: r.id,
    content: r.content,
    author: people.get(r.userId) ?? { id: r.userId, username: "", isAI: false },
    product: r.productId ? (titles.get(r.productId) ?? null) : null,
    sentByAI: r.sentByAI,
    createdAt: r.createdAt.toISOString(),
  }));
}

export async function postShoutout(ctx: Ctx, input: { content: string; productId?: string }) {
  const { db, actor } = ctx;
  const me = signedIn(actor);
  if (input.productId) await tradableProduct(db, input.productId);
  const [row] = await db
    .insert(shoutouts)
    .values({ userId: me.user.id, content: input.content, productId: input.productId ?? null, sentByAI: me.type === "ai" })
    .returning();
  return (await views(db, [row!]))[0]!;
}

export async function shoutoutFeed(db: Db, q: { page: number; limit: number }) {
  const rows = await db
    .select()
    .from(shoutouts)
    .orderBy(desc(shoutouts.createdAt))
    .limit(q.limit)
    .offset((q.page - 1) * q.limit);
  const [n] = await db.select({ n: count() }).from(shoutouts);
  return { shoutouts: await views(db, rows), page: q.page, limit: q.limit, total: Number(n?.n ?? 0) };
}
