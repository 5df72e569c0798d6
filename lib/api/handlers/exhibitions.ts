// GET /api/exhibitions - upcoming and ongoing exhibitions
// POST /api/exhibitions - create an exhibition (ADMIN)
import { createExhibitionOp, listExhibitionsOp } from "@/lib/api/operations";
import { json, route } from "@/lib/api/route";
import { humanUser } from "@/lib/auth/actor";
import { createExhibition, listExhibitions } from "@/lib/services/catalog/exhibitions";

export const GET = route(listExhibitionsOp, async ({ ctx, query }) => listExhibitions(ctx.db, query));

export const POST = route(createExhibitionOp, async ({ ctx, body }) =>
  json({ exhibition: await createExhibition(ctx.db, humanUser(ctx.actor).id, body) }, 201),
);
