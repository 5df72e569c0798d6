// POST /api/requirements/:id/quotes - a store quotes on an open requirement
import { quoteRequirementOp } from "@/lib/api/operations";
import { json, route } from "@/lib/api/route";
import { quoteRequirement } from "@/lib/services/trade/offers";

export const POST = route(quoteRequirementOp, async ({ ctx, params, body }) => json(await quoteRequirement(ctx, params.id, body), 201));
