// POST /api/seller/inquiries/:id/respond - reply, optionally with a quote
import { respondInquiryOp } from "@/lib/api/operations";
import { json, route } from "@/lib/api/route";
import { respondInquiry } from "@/lib/services/trade/inquiries";

export const POST = route(respondInquiryOp, async ({ ctx, params, body }) => json(await respondInquiry(ctx, params.id, body), 201));
