// GET /api/ai/approvals - actions of the guardian's AI accounts held for confirmation
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { GET } from "@/lib/api/handlers/ai-approvals";
