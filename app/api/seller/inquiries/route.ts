// GET /api/seller/inquiries - inquiries to your store
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { GET } from "@/lib/api/handlers/seller-inquiries";
