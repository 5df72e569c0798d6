// What the home page shows of the fair: a few products with pictures, one per store so no single
// supplier fills the row, and the stores that joined last. Public data only (no visitor state).
import { and, desc, eq, sql } from "drizzle-orm";
import { outer } from "@/lib/db/outer-column";
import type { Db } from "@/lib/db/client";
import { products, sellerProfiles } from "@/lib/db/schema";
import { DEFAULT_LOCALE, LOCALES } from "@/lib/i18n/locales";
import { ProductListQuery } from "@/lib/schemas/products";
import { listProducts } from "./search";

/** Newest listed products that have a picture, at most one per store. */
export async function featuredProducts(db: Db, locale: string, count = 8) {
  // The newest page of the public list (its visibility rules), then one per store in that order.
  // A path segment that is no locale (a stray /favicon.ico) still reaches the page: never a 500.
  const known = (LOCALES as readonly string[]).includes(locale) ? locale : DEFAULT_LOCALE;
  const page = await listProducts(db, ProductListQuery.parse({ sort: "newest", limit: 100, locale: known }));
  const seen = new Set<string>();
  const out: typeof page = [];
  for (const p of page) {
    if (!p.mainImageUrl || seen.has(p.seller.id)) continue;
    seen.add(p.seller.id);
    out.push(p);
    if (out.length === count) break;
  }
  return out;
}

const live = sql`${products.sellerId} = ${outer(sellerProfiles.id)} and ${products.deletedAt} is null and not ${products.isHidden}`;

/**
 * Public stores that list something, newest first: walked down the public stores' index, each kept
 * at its first live product, and only the stores shown counted (counting every store's products
 * to test "more than none" read the whole catalog on every visit: 765 ms at 200,000 products).
 */
export async function newestSuppliers(db: Db, count = 6) {
  const rows = await db
    .select({
      id: sellerProfiles.id,
      companyName: sellerProfiles.companyName,
      country: sellerProfiles.country,
      logoUrl: sellerProfiles.logoUrl,
      productCount: sql<number>`(select count(*)::int from ${products} where ${live})`,
    })
    .from(sellerProfiles)
    .where(and(eq(sellerProfiles.isPublic, true), sql`exists (select 1 from ${products} where ${live})`))
    .orderBy(desc(sellerProfiles.createdAt), desc(sellerProfiles.id))
    .limit(count);
  return rows.map((r) => ({ ...r, productCount: Number(r.productCount) }));
}
