// POST /api/offers/:id/decline - decline an open offer you received
import { declineOfferOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { declineOffer } from "@/lib/services/trade/offers";

export const POST = route(declineOfferOp, async ({ ctx, params }) => declineOffer(ctx, params.id));
