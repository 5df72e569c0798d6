// Stores (seller profiles) as the public sees them.
import { and, asc, count, desc, eq, ilike, or, sql } from "drizzle-orm";
import { outer } from "@/lib/db/outer-column";
import { notFound } from "@/lib/errors";
import { queryRows, type Db } from "@/lib/db/client";
import { booths, products, sellerProfiles } from "@/lib/db/schema";
import { boothView } from "./booths";

const productCount = sql<number>`(select count(*)::int from ${products} where ${products.sellerId} = ${outer(sellerProfiles.id)} and ${products.deletedAt} is null and not ${products.isHidden})`;
const boothCount = sql<number>`(select count(*)::int from ${booths} where ${booths.sellerId} = ${outer(sellerProfiles.id)} and ${booths.isPublished})`;

/** The public fields of a store (shared with the store's own settings view). */
export function storeBase(s: typeof sellerProfiles.$inferSelect) {
  return {
    id: s.id,
    companyName: s.companyName,
    description: s.description,
    country: s.country,
    website: s.website,
    logoUrl: s.logoUrl,
    bannerUrl: s.bannerUrl,
  };
}

function storeView(s: typeof sellerProfiles.$inferSelect, counts: { productCount: number; boothCount: number }) {
  return {
    ...storeBase(s),
    productCount: Number(counts.productCount),
    boothCount: Number(counts.boothCount),
    createdAt: s.createdAt.toISOString(),
  };
}

export async function listPublicSellers(db: Db, q: { q?: string; country?: string; page: number; limit: number }) {
  const pattern = q.q ? `%${q.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const where = and(
    eq(sellerProfiles.isPublic, true),
    pattern ? or(ilike(sellerProfiles.companyName, pattern), ilike(sellerProfiles.description, pattern)) : undefined,
    q.country ? eq(sql`lower(${sellerProfiles.country})`, q.country.toLowerCase()) : undefined,
  );
  const rows = await db
    .select({ s: sellerProfiles, productCount, boothCount })
    .from(sellerProfiles)
    .where(where)
    .orderBy(asc(sellerProfiles.companyName), asc(sellerProfiles.id))
    .limit(q.limit)
    .offset((q.page - 1) * q.limit);
  const [total] = await db.select({ n: count() }).from(sellerProfiles).where(where);
  return { sellers: rows.map((r) => storeView(r.s, r)), page: q.page, limit: q.limit, total: Number(total?.n ?? 0) };
}

/** A store with its published booths. */
export async function getStore(db: Db, id: string) {
  const [row] = await db
    .select({ s: sellerProfiles, productCount, boothCount })
    .from(sellerProfiles)
    .where(and(eq(sellerProfiles.id, id), eq(sellerProfiles.isPublic, true)));
  if (!row) throw notFound("Store");
  const published = await db
    .select()
    .from(booths)
    .where(and(eq(booths.sellerId, id), eq(booths.isPublished, true)))
    .orderBy(desc(booths.updatedAt))
    .limit(100);
  return { ...storeView(row.s, row), booths: published.map((b) => boothView(b, false)) };
}

/**
 * The countries public stores name, for the directory's filter (as written, case folded together). Walked one
 * country at a time on `seller_profiles_public_country_idx` (a loose index scan: one probe per country, at most 300),
 * where a DISTINCT read every public store.
 */
export async function storeCountries(db: Db): Promise<string[]> {
  const rows = await queryRows<{ country: string }>(
    db,
    sql`with recursive c(k) as (
      (select lower(country) from seller_profiles where is_public and lower(country) > '' order by lower(country) limit 1)
      union all
      select (select lower(country) from seller_profiles where is_public and lower(country) > c.k order by lower(country) limit 1)
      from c where c.k is not null
    )
    select (select s.country from seller_profiles s where s.is_public and lower(s.country) = c.k limit 1) as country
    from c where c.k is not null limit 300`,
  );
  return rows.map((r) => r.country);
}
