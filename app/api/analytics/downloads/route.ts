// GET /api/analytics/downloads - your store's downloads per day
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { GET } from "@/lib/api/handlers/analytics-downloads";
