// What a product page's <head> needs, without counting a view.
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { products } from "@/lib/db/schema";

export async function getProductMeta(db: Db, id: string) {
  const [p] = await db
    .select({ title: products.title, description: products.description, images: products.images, mainImageUrl: products.mainImageUrl })
    .from(products)
    .where(and(eq(products.id, id), isNull(products.deletedAt), eq(products.isHidden, false)))
    .limit(1);
  return p ? { title: p.title, description: p.description, image: p.mainImageUrl ?? p.images[0] ?? null } : null;
}
