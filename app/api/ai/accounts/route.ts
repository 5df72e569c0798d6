// POST /api/ai/accounts - create an AI agent account
// GET /api/ai/accounts - list the guardian's AI accounts
// PATCH /api/ai/accounts - re-enable, set thresholds and budget, set a new password (revokes the agent's credentials)
// DELETE /api/ai/accounts?aiUserId= - disable (revokes every session)
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { POST, GET, PATCH, DELETE } from "@/lib/api/handlers/ai-accounts";
