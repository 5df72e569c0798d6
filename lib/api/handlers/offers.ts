// GET /api/offers - your offers, as buyer and as store
import { listOffersOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { listOffers } from "@/lib/services/trade/offer-views";

export const GET = route(listOffersOp, async ({ ctx, query }) => listOffers(ctx, query));
