// POST /api/offers/:id/accept - the buyer accepts a store's offer
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { POST } from "@/lib/api/handlers/offers-id-accept";
