// GET /api/products - list and search products (public)
// POST /api/products - create a product in your store
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { GET, POST } from "@/lib/api/handlers/products";
