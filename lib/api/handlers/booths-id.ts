// GET /api/booths/:id - a booth with supplier and products (drafts for their owner only)
// PUT /api/booths/:id - decorate a booth of your store
import { decorateBoothOp, getBoothOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { decorateBooth, getBooth } from "@/lib/services/catalog/booths";

export const GET = route(getBoothOp, async ({ ctx, params }) => ({ booth: await getBooth(ctx, params.id) }));

export const PUT = route(decorateBoothOp, async ({ ctx, params, body }) => ({ booth: await decorateBooth(ctx, params.id, body) }));
