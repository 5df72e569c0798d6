// POST /api/orders - place an order
// GET /api/orders?as=buyer|seller - your orders
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { POST, GET } from "@/lib/api/handlers/orders";
