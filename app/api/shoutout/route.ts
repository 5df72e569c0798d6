// POST /api/shoutout - post a shoutout
// GET /api/shoutout - the public feed
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { POST, GET } from "@/lib/api/handlers/shoutout";
