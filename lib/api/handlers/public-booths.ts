// GET /api/public/booths - published booths
import { publicBoothsOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { listPublicBooths } from "@/lib/services/catalog/booths";

export const GET = route(publicBoothsOp, async ({ ctx, query }) => listPublicBooths(ctx.db, query));
