// POST /api/auth/verify-email/resend - e-mail a new verification link to the signed-in account
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { POST } from "@/lib/api/handlers/auth-verify-email-resend";
