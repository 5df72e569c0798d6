// POST /api/buyer/inquiries/:id/close - close one of your inquiries
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { POST } from "@/lib/api/handlers/buyer-inquiries-id-close";
