// POST /api/buyer/requirements - post a purchase requirement
// GET /api/buyer/requirements - your requirements
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { POST, GET } from "@/lib/api/handlers/buyer-requirements";
