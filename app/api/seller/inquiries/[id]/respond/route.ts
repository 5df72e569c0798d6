// POST /api/seller/inquiries/:id/respond - reply, optionally with a quote
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { POST } from "@/lib/api/handlers/seller-inquiries-id-respond";
