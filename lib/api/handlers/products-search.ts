// GET /api/products/search - advanced search with category facets (public)
import { searchProductsOp } from "@/lib/api/operations";
import { listAnswer, route } from "@/lib/api/route";
import { actingSellerProfileId } from "@/lib/auth/actor";
import { searchProductsJson } from "@/lib/services/catalog/search";

export const GET = route(searchProductsOp, async ({ ctx, query }) =>
  listAnswer(await searchProductsJson(ctx.db, query, { facets: true, ownStore: actingSellerProfileId(ctx.actor) })),
);
