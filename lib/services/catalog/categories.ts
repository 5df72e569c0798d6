// The category tree with names per locale (falling back to English).
import { asc, eq, isNull, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { categories } from "@/lib/db/schema";

export type CategoryNode = { id: string; slug: string; name: string; parentId: string | null; children: CategoryNode[] };

export function localizedName(names: Record<string, string>, locale: string): string {
  return names[locale] ?? names.en ?? Object.values(names)[0] ?? "";
}

export async function categoryTree(db: Db, locale: string): Promise<CategoryNode[]> {
  const rows = await db.select().from(categories).orderBy(asc(categories.sortOrder), asc(categories.slug));
  const nodes = new Map<string, CategoryNode>(
    rows.map((r) => [r.id, { id: r.id, slug: r.slug, name: localizedName(r.names, locale), parentId: r.parentId, children: [] }]),
  );
  const roots: CategoryNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId ? nodes.get(node.parentId) : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

export async function listCategories(db: Db, locale: string, parentId?: string) {
  const rows = await db
    .select()
    .from(categories)
    .where(parentId === undefined ? undefined : parentId === "root" ? isNull(categories.parentId) : eq(categories.parentId, parentId))
    .orderBy(asc(categories.sortOrder), asc(categories.slug));
  return rows.map((r) => ({ id: r.id, slug: r.slug, parentId: r.parentId, name: localizedName(r.names, locale), names: r.names }));
}

/**
 * The ids of a category (by id or slug) and of every category below it, as a subquery. Callers wrap
 * it as `= any(array(...))` so the subtree is computed first and an index on the category column
 * can take part (an `in (subquery)` would be joined only after every other match was fetched).
 */
export function categorySubtree(idOrSlug: string): SQL {
  return sql`with recursive sub(id) as (
      select id from ${categories} where id = ${idOrSlug} or slug = ${idOrSlug}
      union all
      select c.id from ${categories} c join sub on c.parent_id = sub.id
    ) select id from sub`;
}
