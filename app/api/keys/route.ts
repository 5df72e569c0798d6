// POST /api/keys - create an API key (the secret is shown once)
// GET /api/keys - your API keys, without secrets
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { POST, GET } from "@/lib/api/handlers/keys";
