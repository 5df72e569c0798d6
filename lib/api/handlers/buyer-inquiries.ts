// POST /api/buyer/inquiries - send an inquiry about a product
// GET /api/buyer/inquiries - your inquiries with replies
import { createInquiryOp, listBuyerInquiriesOp } from "@/lib/api/operations";
import { json, route } from "@/lib/api/route";
import { createInquiry, listBuyerInquiries } from "@/lib/services/trade/inquiries";

export const POST = route(createInquiryOp, async ({ ctx, body }) => json({ inquiry: await createInquiry(ctx, body) }, 201));

export const GET = route(listBuyerInquiriesOp, async ({ ctx, query }) => listBuyerInquiries(ctx, query));
