// PUT /api/admin/fx-rates - set reference exchange rates as of a date (ADMIN)
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { PUT } from "@/lib/api/handlers/admin-fx-rates";
