// POST /api/auth/verify-email - confirm the account's e-mail address with the e-mailed link
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { POST } from "@/lib/api/handlers/auth-verify-email";
