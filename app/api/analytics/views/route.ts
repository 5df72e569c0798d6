// GET /api/analytics/views - your store's views per day
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { GET } from "@/lib/api/handlers/analytics-views";
