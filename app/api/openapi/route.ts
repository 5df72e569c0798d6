// GET /api/openapi - the OpenAPI 3.0 description
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { GET } from "@/lib/api/handlers/openapi";
