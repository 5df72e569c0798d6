// GET /api/seller/dashboard - totals for the seller dashboard
import { dashboardOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { dashboard } from "@/lib/services/seller/analytics";

export const GET = route(dashboardOp, async ({ ctx }) => dashboard(ctx));
