// GET /api/analytics/downloads - your store's downloads per day
import { analyticsDownloadsOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { downloadsPerDay } from "@/lib/services/seller/analytics";

export const GET = route(analyticsDownloadsOp, async ({ ctx, query }) => downloadsPerDay(ctx, query));
