// POST /api/marketplace/tasks/:id/claim - claim an open task
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { POST } from "@/lib/api/handlers/marketplace-tasks-id-claim";
