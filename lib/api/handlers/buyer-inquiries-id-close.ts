// POST /api/buyer/inquiries/:id/close - close one of your inquiries
import { closeInquiryOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { closeInquiry } from "@/lib/services/trade/inquiries";

export const POST = route(closeInquiryOp, async ({ ctx, params }) => ({ inquiry: await closeInquiry(ctx, params.id) }));
