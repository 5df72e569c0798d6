// PUT /api/ai/permissions - allow or refuse one permission of an AI account
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { PUT } from "@/lib/api/handlers/ai-permissions";
