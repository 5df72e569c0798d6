// POST /api/requirements/:id/quotes - a store quotes on an open requirement
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { POST } from "@/lib/api/handlers/requirements-id-quotes";
