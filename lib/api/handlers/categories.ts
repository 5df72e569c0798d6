// GET /api/categories - product categories
import { listCategoriesOp } from "@/lib/api/operations";
import { json, route } from "@/lib/api/route";
import { listCategories } from "@/lib/services/catalog/categories";

export const GET = route(listCategoriesOp, async ({ ctx, query }) =>
  json({ categories: await listCategories(ctx.db, query.locale, query.parentId) }, 200, { "Cache-Control": "public, max-age=60" }),
);
