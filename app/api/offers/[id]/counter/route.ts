// POST /api/offers/:id/counter - answer an open offer with your own terms
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { POST } from "@/lib/api/handlers/offers-id-counter";
