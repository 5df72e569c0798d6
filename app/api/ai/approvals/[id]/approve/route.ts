// POST /api/ai/approvals/:id/approve - release a held order, quote or price
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { POST } from "@/lib/api/handlers/ai-approvals-id-approve";
