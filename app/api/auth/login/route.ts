// POST /api/auth/login - sign in and get a Bearer JWT
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { POST } from "@/lib/api/handlers/auth-login";
