// GET /api/marketplace/tasks - list tasks
// POST /api/marketplace/tasks - create a task
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { GET, POST } from "@/lib/api/handlers/marketplace-tasks";
