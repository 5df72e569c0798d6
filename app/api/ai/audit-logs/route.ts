// GET /api/ai/audit-logs?aiUserId= - an AI account's audit log (JSON page, or CSV with format=csv)
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { GET } from "@/lib/api/handlers/ai-audit-logs";
