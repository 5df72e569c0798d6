// GET /api/offers - your offers, as buyer and as store
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { GET } from "@/lib/api/handlers/offers";
