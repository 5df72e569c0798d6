// GET /api/offers/:id - one offer with its negotiation
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { GET } from "@/lib/api/handlers/offers-id";
