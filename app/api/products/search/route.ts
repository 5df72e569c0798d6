// GET /api/products/search - advanced search with category facets (public)
import { searchProductsOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { searchProducts } from "@/lib/services/catalog/search";

export const GET = route(searchProductsOp, async ({ ctx, query }) => searchProducts(ctx.db, query, { facets: true }));
