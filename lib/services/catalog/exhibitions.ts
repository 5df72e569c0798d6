// Exhibitions with their status derived from the dates (contract 4); created by an ADMIN.
import { and, asc, count, desc, eq, gt, lt, lte, or, sql, type SQL } from "drizzle-orm";
import { outer } from "@/lib/db/outer-column";
import { ApiError, notFound } from "@/lib/errors";
import type { Db } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { booths, exhibitions, sellerProfiles } from "@/lib/db/schema";
import { boothView } from "./booths";

export type ExhibitionStatus = "upcoming" | "ongoing" | "past";
type Row = typeof exhibitions.$inferSelect;

export function exhibitionStatus(e: { startsAt: Date; endsAt: Date }, now = new Date()): ExhibitionStatus {
  if (now < e.startsAt) return "upcoming";
  if (now > e.endsAt) return "past";
  return "ongoing";
}

export function exhibitionView(e: Row, boothCount?: number) {
  return {
    id: e.id,
    name: e.name,
    slug: e.slug,
    description: e.description,
    venue: e.venue,
    bannerUrl: e.bannerUrl,
    startsAt: e.startsAt.toISOString(),
    endsAt: e.endsAt.toISOString(),
    status: exhibitionStatus(e),
    ...(boothCount !== undefined ? { boothCount } : {}),
  };
}

const publishedBooths = sql<number>`(select count(*)::int from ${booths} where ${booths.exhibitionId} = ${outer(exhibitions.id)} and ${booths.isPublished})`;

export async function listExhibitions(db: Db, q: { status: "current" | "upcoming" | "ongoing" | "past" | "all"; page: number; limit: number }) {
  const now = new Date();
  const where: Record<typeof q.status, SQL | undefined> = {
    current: gt(exhibitions.endsAt, now),
    upcoming: gt(exhibitions.startsAt, now),
    ongoing: and(lte(exhibitions.startsAt, now), gt(exhibitions.endsAt, now)),
    past: lt(exhibitions.endsAt, now),
    all: undefined,
  };
  const rows = await db
    .select({ e: exhibitions, boothCount: publishedBooths })
    .from(exhibitions)
    .where(where[q.status])
    .orderBy(q.status === "past" ? desc(exhibitions.endsAt) : asc(exhibitions.startsAt))
    .limit(q.limit)
    .offset((q.page - 1) * q.limit);
  const [total] = await db.select({ n: count() }).from(exhibitions).where(where[q.status]);
  return { exhibitions: rows.map((r) => exhibitionView(r.e, Number(r.boothCount))), page: q.page, limit: q.limit, total: Number(total?.n ?? 0) };
}

/** Upcoming and ongoing exhibitions, soonest first (home page). */
export async function currentExhibitions(db: Db) {
  return (await listExhibitions(db, { status: "current", page: 1, limit: 20 })).exhibitions;
}

/** An exhibition by id or slug, with its published booths. */
export async function getExhibition(db: Db, idOrSlug: string) {
  const [e] = await db
    .select()
    .from(exhibitions)
    .where(or(eq(exhibitions.id, idOrSlug), eq(exhibitions.slug, idOrSlug)))
    .limit(1);
  if (!e) throw notFound("Exhibition");
  const rows = await db
    .select({ b: booths, companyName: sellerProfiles.companyName })
    .from(booths)
    .innerJoin(sellerProfiles, eq(sellerProfiles.id, booths.sellerId))
    .where(and(eq(booths.exhibitionId, e.id), eq(booths.isPublished, true)))
    .orderBy(asc(booths.name))
    .limit(500);
  return { ...exhibitionView(e, rows.length), booths: rows.map((r) => ({ ...boothView(r.b, false), companyName: r.companyName })) };
}

function slugify(name: string): string {
  const s = name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80);
  return s || `exhibition-${Date.now().toString(36)}`;
}

export async function createExhibition(
  db: Db,
  createdBy: string,
  input: { name: string; slug?: string; description?: string; venue?: string; bannerUrl?: string | null; startsAt: string; endsAt: string },
) {
  try {
    const [row] = await db
      .insert(exhibitions)
      .values({
        name: input.name,
        slug: input.slug ?? slugify(input.name),
        description: input.description ?? "",
        venue: input.venue ?? "",
        bannerUrl: input.bannerUrl ?? null,
        startsAt: new Date(input.startsAt),
        endsAt: new Date(input.endsAt),
        createdBy,
      })
      .returning();
    // Booths that named this exhibition before it existed join it now.
    await db
      .update(booths)
      .set({ exhibitionId: row!.id, updatedAt: new Date() })
      .where(and(sql`${booths.exhibitionId} is null`, eq(sql`lower(${booths.exhibitionName})`, input.name.toLowerCase())));
    return exhibitionView(row!, 0);
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError("conflict", "An exhibition with this name or slug exists");
    throw err;
  }
}
