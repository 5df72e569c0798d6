// GET /api/analytics/inquiries - your store's inquiries per day
import { analyticsInquiriesOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { inquiriesPerDay } from "@/lib/services/seller/analytics";

export const GET = route(analyticsInquiriesOp, async ({ ctx, query }) => inquiriesPerDay(ctx, query));
