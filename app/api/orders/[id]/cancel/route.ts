// POST /api/orders/:id/cancel - the buyer or the store cancels an order
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { POST } from "@/lib/api/handlers/orders-id-cancel";
