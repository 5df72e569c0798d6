// POST /api/seller/brochures - publish a brochure
// GET /api/seller/brochures - your brochures
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { POST, GET } from "@/lib/api/handlers/seller-brochures";
