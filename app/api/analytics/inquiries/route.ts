// GET /api/analytics/inquiries - your store's inquiries per day
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { GET } from "@/lib/api/handlers/analytics-inquiries";
