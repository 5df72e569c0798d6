// POST /api/auth/logout - end the current session (cookie or Bearer)
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { POST } from "@/lib/api/handlers/auth-logout";
