// PUT /api/admin/rate-tiers - grant or withdraw the unlimited tier of an account or API key (ADMIN)
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { PUT } from "@/lib/api/handlers/admin-rate-tiers";
