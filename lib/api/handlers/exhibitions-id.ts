// GET /api/exhibitions/:id - an exhibition (id or slug) with its published booths
import { getExhibitionOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { getExhibition } from "@/lib/services/catalog/exhibitions";

export const GET = route(getExhibitionOp, async ({ ctx, params }) => ({ exhibition: await getExhibition(ctx.db, params.id) }));
