// POST /api/buyer/requirements/:id/close - close one of your requirements
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { POST } from "@/lib/api/handlers/buyer-requirements-id-close";
