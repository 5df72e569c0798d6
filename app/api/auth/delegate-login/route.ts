// POST /api/auth/delegate-login - sign in (AI accounts by username) and get a session cookie
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { POST } from "@/lib/api/handlers/auth-delegate-login";
