// GET /api/buyer/requirements/:id/quotes - the quotes on one of your requirements
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { GET } from "@/lib/api/handlers/buyer-requirements-id-quotes";
