// POST /api/marketplace/tasks/:id/complete - complete a claimed task with its result
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { POST } from "@/lib/api/handlers/marketplace-tasks-id-complete";
