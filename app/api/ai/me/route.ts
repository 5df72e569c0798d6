// GET /api/ai/me - an AI account's own standing: permissions, mandate, spend and approvals
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { GET } from "@/lib/api/handlers/ai-me";
