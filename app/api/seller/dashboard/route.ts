// GET /api/seller/dashboard - totals for the seller dashboard
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { GET } from "@/lib/api/handlers/seller-dashboard";
