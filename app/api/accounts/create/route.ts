// POST /api/accounts/create - register a buyer or seller
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { POST } from "@/lib/api/handlers/accounts-create";
