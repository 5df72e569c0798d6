// Booths: publication by the human owner (spec 3), decoration, and the view each caller may see.
import { and, eq, sql } from "drizzle-orm";
import { ApiError, notFound } from "@/lib/api/errors";
import type { Db } from "@/lib/db/client";
import { booths, exhibitions } from "@/lib/db/schema";

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
  const [e] = await db.select({ id: exhibitions.id }).from(exhibitions).where(eq(sql`lower(${exhibitions.name})`, name.trim().toLowerCase())).limit(1);
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
