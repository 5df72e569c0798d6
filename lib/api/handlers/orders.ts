// POST /api/orders - place an order
// GET /api/orders?as=buyer|seller - your orders
import { listOrdersOp, placeOrderOp } from "@/lib/api/operations";
import { json, route } from "@/lib/api/route";
import { listOrders, placeOrder } from "@/lib/services/trade/orders";

export const POST = route(placeOrderOp, async ({ ctx, body }) => json(await placeOrder(ctx, body), 201));

export const GET = route(listOrdersOp, async ({ ctx, query }) => listOrders(ctx, query));
