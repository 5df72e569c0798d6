// GET /api/exhibitions - upcoming and ongoing exhibitions
// POST /api/exhibitions - create an exhibition (ADMIN)
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { GET, POST } from "@/lib/api/handlers/exhibitions";
