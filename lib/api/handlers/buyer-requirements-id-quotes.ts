// GET /api/buyer/requirements/:id/quotes - the quotes on one of your requirements, side by side
import { compareQuotesOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { compareQuotes } from "@/lib/services/trade/offer-views";

export const GET = route(compareQuotesOp, async ({ ctx, params }) => compareQuotes(ctx, params.id));
