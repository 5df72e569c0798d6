// GET /api/products/:id - product details (counts a view)
// PUT /api/products/:id - update any fields
// PATCH /api/products/:id - booth assignment, OEM, minimum order, main image
// DELETE /api/products/:id - delete a product of your store
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { GET, PUT, PATCH, DELETE } from "@/lib/api/handlers/products-id";
