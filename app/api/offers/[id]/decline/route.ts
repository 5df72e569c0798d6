// POST /api/offers/:id/decline - decline an open offer you received
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { POST } from "@/lib/api/handlers/offers-id-decline";
