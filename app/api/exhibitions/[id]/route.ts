// GET /api/exhibitions/:id - an exhibition (id or slug) with its published booths
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { GET } from "@/lib/api/handlers/exhibitions-id";
