// GET /api/booths/:id - a booth with supplier and products (drafts for their owner only)
// PUT /api/booths/:id - decorate a booth of your store
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { GET, PUT } from "@/lib/api/handlers/booths-id";
