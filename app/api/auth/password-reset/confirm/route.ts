// POST /api/auth/password-reset/confirm - set a new password with the e-mailed link
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { POST } from "@/lib/api/handlers/auth-password-reset-confirm";
