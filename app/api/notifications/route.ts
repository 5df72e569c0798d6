// GET /api/notifications - your notifications, newest first, with the unread count
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { GET } from "@/lib/api/handlers/notifications";
