// POST /api/orders/:id/fulfill - the store fulfills an order
import { fulfillOrderOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { advanceOrder } from "@/lib/services/trade/orders";

export const POST = route(fulfillOrderOp, async ({ ctx, params }) => ({ order: await advanceOrder(ctx, params.id, "fulfill") }));
