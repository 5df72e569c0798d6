// GET /api/orders/:id - one order
import { getOrderOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { getOrder } from "@/lib/services/trade/orders";

export const GET = route(getOrderOp, async ({ ctx, params }) => ({ order: await getOrder(ctx, params.id) }));
