// POST /api/auth/password-reset - e-mail a password-reset link (202 whether or not the address is known)
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { POST } from "@/lib/api/handlers/auth-password-reset";
