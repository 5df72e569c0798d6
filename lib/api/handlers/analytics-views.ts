// GET /api/analytics/views - your store's views per day
import { analyticsViewsOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { viewsPerDay } from "@/lib/services/seller/analytics";

export const GET = route(analyticsViewsOp, async ({ ctx, query }) => viewsPerDay(ctx, query));
