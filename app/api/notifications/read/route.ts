// POST /api/notifications/read - mark the given notifications (or all) read
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { POST } from "@/lib/api/handlers/notifications-read";
