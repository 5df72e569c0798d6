import type { MetadataRoute } from "next";
import { and, desc, eq, isNull } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { booths, exhibitions, products, sellerProfiles } from "@/lib/db/schema";
import { localizedPath } from "@/lib/i18n/metadata";
import { LOCALES } from "@/lib/i18n/locales";

export const dynamic = "force-dynamic";

/** Public pages in every locale, with hreflang alternates (as-needed prefixes). */
export default async function sitemap(): Promise<MetadataRoute.Sitemap> {
  const base = (process.env.NEXTAUTH_URL ?? "http://localhost:3000").replace(/\/$/, "");
  const db = await getDb();
  const [ex, bo, pr, st] = await Promise.all([
    db.select({ slug: exhibitions.slug, at: exhibitions.updatedAt }).from(exhibitions).orderBy(desc(exhibitions.startsAt)).limit(1000),
    db.select({ id: booths.id, at: booths.updatedAt }).from(booths).where(eq(booths.isPublished, true)).limit(5000),
    db
      .select({ id: products.id, at: products.updatedAt })
      .from(products)
      .where(and(isNull(products.deletedAt), eq(products.isHidden, false)))
      .orderBy(desc(products.updatedAt))
      .limit(20000),
    db.select({ id: sellerProfiles.id, at: sellerProfiles.updatedAt }).from(sellerProfiles).where(eq(sellerProfiles.isPublic, true)).limit(5000),
  ]);
  const entry = (path: string, lastModified?: Date): MetadataRoute.Sitemap[number] => ({
    url: `${base}${localizedPath("en", path)}`,
    lastModified,
    alternates: { languages: Object.fromEntries(LOCALES.map((l) => [l, `${base}${localizedPath(l, path)}`])) },
  });
  return [
    entry("/"),
    entry("/search"),
    entry("/exhibitions"),
    entry("/legal/ai-privacy-policy"),
    entry("/api-docs"),
    ...ex.map((e) => entry(`/exhibitions/${e.slug}`, e.at)),
    ...bo.map((b) => entry(`/booths/${b.id}`, b.at)),
    ...pr.map((p) => entry(`/products/${p.id}`, p.at)),
    ...st.map((s) => entry(`/stores/${s.id}`, s.at)),
  ];
}
