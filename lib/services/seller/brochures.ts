// Brochures: a store's downloadable catalogs; every public download is counted, then redirected.
import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { ApiError, notFound } from "@/lib/errors";
import { requireStoreId, type Actor } from "@/lib/auth/actor";
import { booths, brochureDownloads, brochures, products, uploads } from "@/lib/db/schema";
import { signedIn } from "@/lib/services/trade/common";
import type { Ctx } from "@/lib/gate/context";

type Row = typeof brochures.$inferSelect;
const view = (b: Row) => ({
  id: b.id,
  title: b.title,
  fileUrl: b.fileUrl,
  downloadUrl: `/api/brochures/${b.id}/download`,
  boothId: b.boothId,
  productIds: b.productIds,
  downloadCount: b.downloadCount,
  sentByAI: b.sentByAI,
  createdAt: b.createdAt.toISOString(),
});

const store = (actor: Actor) => requireStoreId(signedIn(actor));

export async function createBrochure(ctx: Ctx, input: { title: string; fileUrl: string; boothId?: string; productIds?: string[] }) {
  const { db, actor } = ctx;
  const sellerId = store(actor);
  const [file] = await db.select({ id: uploads.id }).from(uploads).where(eq(uploads.url, input.fileUrl)).limit(1);
  if (!file) throw new ApiError("validation_failed", "fileUrl is not a stored upload", { errors: [{ path: "fileUrl", message: "Upload the file first" }] });
  if (input.boothId) {
    const [b] = await db
      .select({ id: booths.id })
      .from(booths)
      .where(and(eq(booths.id, input.boothId), eq(booths.sellerId, sellerId)));
    if (!b) throw notFound("Booth");
  }
  const productIds = [...new Set(input.productIds ?? [])];
  if (productIds.length) {
    const own = await db
      .select({ id: products.id })
      .from(products)
      .where(and(inArray(products.id, productIds), eq(products.sellerId, sellerId), isNull(products.deletedAt)));
    if (own.length !== productIds.length) throw notFound("Product");
  }
  const me = signedIn(actor);
  const [row] = await db
    .insert(brochures)
    .values({ sellerId, title: input.title, fileUrl: input.fileUrl, boothId: input.boothId ?? null, productIds, sentByAI: me.type === "ai" })
    .returning();
  return view(row!);
}

export async function listOwnBrochures(ctx: Ctx) {
  const { db, actor } = ctx;
  const rows = await db
    .select()
    .from(brochures)
    .where(eq(brochures.sellerId, store(actor)))
    .orderBy(desc(brochures.createdAt));
  return { brochures: rows.map(view) };
}

/** Count one download and answer where the file is. */
export async function downloadBrochure(ctx: Ctx, id: string): Promise<string> {
  const { db, actor, ip } = ctx;
  return db.transaction(async (tx) => {
    const [b] = await tx
      .update(brochures)
      .set({ downloadCount: sql`${brochures.downloadCount} + 1` })
      .where(eq(brochures.id, id))
      .returning();
    if (!b) throw notFound("Brochure");
    const userId = actor.type === "human" || actor.type === "ai" ? actor.user.id : null;
    await tx.insert(brochureDownloads).values({ brochureId: b.id, sellerId: b.sellerId, userId, ip });
    return b.fileUrl;
  });
}
