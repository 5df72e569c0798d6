// GET /api/sellers/public - public suppliers
import { publicSellersOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { listPublicSellers } from "@/lib/services/catalog/stores";

export const GET = route(publicSellersOp, async ({ ctx, query }) => listPublicSellers(ctx.db, query));
