// POST /api/offers/:id/accept - the buyer accepts a store's offer into an order
import { acceptOfferOp } from "@/lib/api/operations";
import { json, route } from "@/lib/api/route";
import { acceptOffer } from "@/lib/services/trade/offers";

export const POST = route(acceptOfferOp, async ({ ctx, params, body }) => json(await acceptOffer(ctx, params.id, body ?? {}), 201));
