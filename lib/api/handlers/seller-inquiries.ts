// GET /api/seller/inquiries - inquiries to your store
import { listSellerInquiriesOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { listSellerInquiries } from "@/lib/services/trade/inquiries";

export const GET = route(listSellerInquiriesOp, async ({ ctx, query }) => listSellerInquiries(ctx, query));
