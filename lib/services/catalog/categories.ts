// The category tree with names per locale (falling back to English).
import { asc, eq, isNull } from "drizzle-orm";
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
