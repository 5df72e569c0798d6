// GET /api/stores/:id - a supplier's store with its published booths
import { getStoreOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { getStore } from "@/lib/services/catalog/stores";

export const GET = route(getStoreOp, async ({ ctx, params }) => ({ store: await getStore(ctx.db, params.id) }));
