// GET /api/marketplace/tasks/:id - task details
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { GET } from "@/lib/api/handlers/marketplace-tasks-id";
