// GET /api/sellers - sellers and their stores
import { listSellersOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { listPublicSellers } from "@/lib/services/catalog/stores";

export const GET = route(listSellersOp, async ({ ctx, query }) => listPublicSellers(ctx.db, query));
