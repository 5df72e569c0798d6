// GET /api/auth/me - the signed-in account, or null
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { GET } from "@/lib/api/handlers/auth-me";
