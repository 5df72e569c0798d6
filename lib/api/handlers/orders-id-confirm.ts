// POST /api/orders/:id/confirm - the store confirms an order
import { confirmOrderOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { advanceOrder } from "@/lib/services/trade/orders";

export const POST = route(confirmOrderOp, async ({ ctx, params }) => ({ order: await advanceOrder(ctx, params.id, "confirm") }));
