// DELETE /api/keys/:id - revoke one of your API keys
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { DELETE } from "@/lib/api/handlers/keys-id";
