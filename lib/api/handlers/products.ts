// GET /api/products - list and search products (public)
// POST /api/products - create a product in your store
import { createProductOp, listProductsOp } from "@/lib/api/operations";
import { json, listAnswer, route } from "@/lib/api/route";
import { actingSellerProfileId } from "@/lib/auth/actor";
import { createProduct } from "@/lib/services/catalog/products";
import { searchProductsJson } from "@/lib/services/catalog/search";

export const GET = route(listProductsOp, async ({ ctx, query }) =>
  listAnswer(await searchProductsJson(ctx.db, query, { facets: false, ownStore: actingSellerProfileId(ctx.actor) })),
);

export const POST = route(createProductOp, async ({ ctx, body }) => json({ product: await createProduct(ctx, body) }, 201));
