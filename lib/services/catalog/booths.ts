// Booths: publication by the human owner (spec 3), decoration, and the view each caller may see.
import { and, count, desc, eq, isNull, sql } from "drizzle-orm";
import { outer } from "@/lib/db/outer-column";
import { ApiError, notFound } from "@/lib/errors";
import { actingSellerProfileId, isAdmin } from "@/lib/auth/actor";
import type { Db } from "@/lib/db/client";
import { booths, exhibitions, products, sellerProfiles } from "@/lib/db/schema";
import type { Ctx } from "@/lib/gate/context";
import { productView } from "./product-view";

type BoothRow = typeof booths.$inferSelect;

export function boothView(b: BoothRow, isOwner: boolean) {
  return {
    id: b.id,
    sellerId: b.sellerId,
    exhibitionId: b.exhibitionId,
    name: b.name,
    exhibitionName: b.exhibitionName,
    location: b.location,
    logoUrl: b.logoUrl,
    bannerUrl: b.bannerUrl,
    description: b.description,
    // Booth keywords serve search only; buyers never see them (spec 2.8).
    ...(isOwner ? { keywords: b.keywords } : {}),
    documents: b.documents,
    theme: b.theme,
    colorScheme: b.colorScheme,
    isPublished: b.isPublished,
    createdAt: b.createdAt.toISOString(),
    updatedAt: b.updatedAt.toISOString(),
  };
}

/** The exhibition whose name equals `exhibitionName` (case-insensitive), if any. */
export async function exhibitionIdForName(db: Db, name: string | null | undefined): Promise<string | null> {
  if (!name) return null;
  const [e] = await db
    .select({ id: exhibitions.id })
    .from(exhibitions)
    .where(eq(sql`lower(${exhibitions.name})`, name.trim().toLowerCase()))
    .limit(1);
  return e?.id ?? null;
}

export type BoothChanges = {
  name?: string;
  exhibitionName?: string | null;
  location?: string | null;
  logoUrl?: string | null;
  bannerUrl?: string | null;
  description?: string | null;
  theme?: string | null;
  colorScheme?: string | null;
  isPublished?: boolean;
};

/**
 * `PUT /api/booths`: publish or decorate a booth of the caller's own store. Only a human owner
 * reaches this (AI accounts get 404 before it runs).
 */
export async function updateOwnBooth(db: Db, sellerProfileId: string | null, boothId: string, changes: BoothChanges) {
  if (!sellerProfileId) throw new ApiError("seller_profile_required", "Open a store (seller profile) first");
  const [booth] = await db
    .select()
    .from(booths)
    .where(and(eq(booths.id, boothId), eq(booths.sellerId, sellerProfileId)))
    .limit(1);
  if (!booth) throw notFound("Booth");
  const set: Partial<typeof booths.$inferInsert> = { updatedAt: new Date() };
  for (const key of ["name", "location", "logoUrl", "bannerUrl", "description", "theme", "colorScheme", "isPublished"] as const) {
    if (changes[key] !== undefined) (set as Record<string, unknown>)[key] = changes[key];
  }
  if (changes.exhibitionName !== undefined) {
    set.exhibitionName = changes.exhibitionName;
    set.exhibitionId = await exhibitionIdForName(db, changes.exhibitionName);
  }
  const [updated] = await db.update(booths).set(set).where(eq(booths.id, boothId)).returning();
  return boothView(updated!, true);
}

export type BoothInput = BoothChanges & { keywords?: string[]; documents?: { url: string; name: string; type: string; size: number }[] };

/** POST /api/booths: a new unpublished booth of the caller's store (an AI_SELLER's guardian's). */
export async function createBooth(ctx: Ctx, input: BoothInput & { name: string }) {
  const { db, actor } = ctx;
  const sellerId = actingSellerProfileId(actor);
  if (!sellerId) throw new ApiError("seller_profile_required", "Open a store (seller profile) first");
  const [row] = await db
    .insert(booths)
    .values({
      sellerId,
      name: input.name,
      exhibitionName: input.exhibitionName ?? null,
      exhibitionId: await exhibitionIdForName(db, input.exhibitionName),
      location: input.location ?? null,
      logoUrl: input.logoUrl ?? null,
      bannerUrl: input.bannerUrl ?? null,
      description: input.description ?? null,
      keywords: input.keywords ?? [],
      documents: input.documents ?? [],
      theme: input.theme ?? null,
      colorScheme: input.colorScheme ?? null,
      isPublished: false,
    })
    .returning();
  return boothView(row!, true);
}

/**
 * A booth as this caller may see it: published ones for everyone, drafts for their store (its owner
 * and its AI_SELLER) and administrators only; to anyone else a draft is 404 like a missing booth.
 */
export async function getBooth(ctx: Ctx, id: string) {
  const { db, actor } = ctx;
  const [b] = await db.select().from(booths).where(eq(booths.id, id)).limit(1);
  const own = !!b && actingSellerProfileId(actor) === b.sellerId;
  if (!b || (!b.isPublished && !own && !isAdmin(actor))) throw notFound("Booth");
  const [seller] = await db
    .select({ id: sellerProfiles.id, companyName: sellerProfiles.companyName, country: sellerProfiles.country, logoUrl: sellerProfiles.logoUrl })
    .from(sellerProfiles)
    .where(eq(sellerProfiles.id, b.sellerId));
  const [exhibition] = b.exhibitionId
    ? await db.select({ id: exhibitions.id, name: exhibitions.name, slug: exhibitions.slug }).from(exhibitions).where(eq(exhibitions.id, b.exhibitionId))
    : [];
  const items = await db
    .select()
    .from(products)
    .where(and(eq(products.boothId, b.id), isNull(products.deletedAt), own ? undefined : eq(products.isHidden, false)))
    .orderBy(desc(products.createdAt))
    .limit(100);
  const info = seller ? { id: seller.id, companyName: seller.companyName, country: seller.country } : { id: b.sellerId, companyName: "", country: null };
  return {
    ...boothView(b, own),
    seller: seller ?? null,
    exhibition: exhibition ?? null,
    products: items.map((p) => productView(p, info, undefined, true)),
  };
}

/** PUT /api/booths/:id: decoration by the owner (an AI needs booth.edit); never the publish switch. */
export async function decorateBooth(ctx: Ctx, id: string, changes: BoothInput) {
  const { db, actor } = ctx;
  const sellerId = actingSellerProfileId(actor);
  const [b] = await db
    .select({ id: booths.id })
    .from(booths)
    .where(and(eq(booths.id, id), sellerId ? eq(booths.sellerId, sellerId) : sql`false`));
  if (!b) throw notFound("Booth");
  const { isPublished: _ignored, keywords, documents, ...rest } = changes;
  const view = await updateOwnBooth(db, sellerId, id, rest);
  if (keywords === undefined && documents === undefined) return view;
  const [row] = await db
    .update(booths)
    .set({ ...(keywords !== undefined ? { keywords } : {}), ...(documents !== undefined ? { documents } : {}), updatedAt: new Date() })
    .where(eq(booths.id, id))
    .returning();
  return boothView(row!, true);
}

export async function listPublicBooths(db: Db, q: { exhibitionId?: string; sellerId?: string; page: number; limit: number }) {
  const where = and(
    eq(booths.isPublished, true),
    q.exhibitionId ? eq(booths.exhibitionId, q.exhibitionId) : undefined,
    q.sellerId ? eq(booths.sellerId, q.sellerId) : undefined,
  );
  const rows = await db
    .select({
      b: booths,
      companyName: sellerProfiles.companyName,
      productCount: sql<number>`(select count(*)::int from ${products} where ${products.boothId} = ${outer(booths.id)} and ${products.deletedAt} is null and not ${products.isHidden})`,
    })
    .from(booths)
    .innerJoin(sellerProfiles, eq(sellerProfiles.id, booths.sellerId))
    .where(where)
    .orderBy(desc(booths.updatedAt), desc(booths.id))
    .limit(q.limit)
    .offset((q.page - 1) * q.limit);
  const [total] = await db.select({ n: count() }).from(booths).where(where);
  return {
    booths: rows.map((r) => ({ ...boothView(r.b, false), companyName: r.companyName, productCount: Number(r.productCount) })),
    page: q.page,
    limit: q.limit,
    total: Number(total?.n ?? 0),
  };
}

/** GET /api/booths: every booth of the caller's store, drafts included, with product counts. */
export async function listOwnBooths(ctx: Ctx) {
  const { db, actor } = ctx;
  const sellerId = actingSellerProfileId(actor);
  if (!sellerId) return { booths: [] };
  const rows = await db
    .select({
      b: booths,
      productCount: sql<number>`(select count(*)::int from ${products} where ${products.boothId} = ${outer(booths.id)} and ${products.deletedAt} is null)`,
    })
    .from(booths)
    .where(eq(booths.sellerId, sellerId))
    .orderBy(desc(booths.createdAt));
  return { booths: rows.map((r) => ({ ...boothView(r.b, true), productCount: Number(r.productCount) })) };
}
