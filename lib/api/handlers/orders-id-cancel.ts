// POST /api/orders/:id/cancel - the buyer or the store cancels an order
import { cancelOrderOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { cancelOrder } from "@/lib/services/trade/orders";

export const POST = route(cancelOrderOp, async ({ ctx, params }) => ({ order: await cancelOrder(ctx, params.id) }));
