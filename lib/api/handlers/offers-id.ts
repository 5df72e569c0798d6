// GET /api/offers/:id - one offer with its negotiation
import { getOfferOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { getOffer } from "@/lib/services/trade/offers";

export const GET = route(getOfferOp, async ({ ctx, params }) => getOffer(ctx, params.id));
