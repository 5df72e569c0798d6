// POST /api/seller/brochures - publish a brochure
// GET /api/seller/brochures - your brochures
import { createBrochureOp, listBrochuresOp } from "@/lib/api/operations";
import { json, route } from "@/lib/api/route";
import { createBrochure, listOwnBrochures } from "@/lib/services/seller/brochures";

export const POST = route(createBrochureOp, async ({ ctx, body }) => json({ brochure: await createBrochure(ctx, body) }, 201));

export const GET = route(listBrochuresOp, async ({ ctx }) => listOwnBrochures(ctx));
