// POST /api/offers/:id/counter - answer an open offer with your own terms
import { counterOfferOp } from "@/lib/api/operations";
import { json, route } from "@/lib/api/route";
import { counterOffer } from "@/lib/services/trade/offers";

export const POST = route(counterOfferOp, async ({ ctx, params, body }) => json(await counterOffer(ctx, params.id, body), 201));
