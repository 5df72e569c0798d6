// GET /api/sellers/:id - a seller's profile (store)
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { GET } from "@/lib/api/handlers/sellers-id";
