// POST /api/user/password - change your password (ends every session of the account)
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { POST } from "@/lib/api/handlers/user-password";
