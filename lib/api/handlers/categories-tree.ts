// GET /api/categories/tree - the hierarchical category tree
import { categoryTreeOp } from "@/lib/api/operations";
import { json, route } from "@/lib/api/route";
import { categoryTree } from "@/lib/services/catalog/categories";

export const GET = route(categoryTreeOp, async ({ ctx, query }) =>
  json({ categories: await categoryTree(ctx.db, query.locale) }, 200, { "Cache-Control": "public, max-age=60" }),
);
