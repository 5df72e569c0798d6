// GET /api/fx-rates - reference exchange rates to USD (public)
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { GET } from "@/lib/api/handlers/fx-rates";
