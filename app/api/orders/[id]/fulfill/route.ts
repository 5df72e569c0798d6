// POST /api/orders/:id/fulfill - the store fulfills an order
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { POST } from "@/lib/api/handlers/orders-id-fulfill";
