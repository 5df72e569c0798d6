// GET /api/sellers/:id - a seller's profile (store)
import { getSellerOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { getStore } from "@/lib/services/catalog/stores";

export const GET = route(getSellerOp, async ({ ctx, params }) => ({ seller: await getStore(ctx.db, params.id) }));
