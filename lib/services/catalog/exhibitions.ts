// Exhibitions with their status derived from the dates (contract 4).
import { asc, gt } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { exhibitions } from "@/lib/db/schema";

export type ExhibitionStatus = "upcoming" | "ongoing" | "past";

export function exhibitionStatus(e: { startsAt: Date; endsAt: Date }, now = new Date()): ExhibitionStatus {
  if (now < e.startsAt) return "upcoming";
  if (now > e.endsAt) return "past";
  return "ongoing";
}

/** Upcoming and ongoing exhibitions, soonest first. */
export async function currentExhibitions(db: Db) {
  const rows = await db.select().from(exhibitions).where(gt(exhibitions.endsAt, new Date())).orderBy(asc(exhibitions.startsAt));
  return rows.map((e) => ({
    id: e.id,
    name: e.name,
    slug: e.slug,
    description: e.description,
    venue: e.venue,
    bannerUrl: e.bannerUrl,
    startsAt: e.startsAt.toISOString(),
    endsAt: e.endsAt.toISOString(),
    status: exhibitionStatus(e),
  }));
}
