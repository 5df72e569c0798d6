// GET /api/brochures/:id/download - count a download and redirect to the file
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { GET } from "@/lib/api/handlers/brochures-id-download";
