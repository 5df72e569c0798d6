// GET /api/notifications/unread-count - how many of your notifications are unread
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { GET } from "@/lib/api/handlers/notifications-unread-count";
