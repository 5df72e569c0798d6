// GET /api/stores/:id - a supplier's store with its published booths
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { GET } from "@/lib/api/handlers/stores-id";
