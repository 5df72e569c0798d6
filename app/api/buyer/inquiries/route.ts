// POST /api/buyer/inquiries - send an inquiry about a product
// GET /api/buyer/inquiries - your inquiries with replies
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { POST, GET } from "@/lib/api/handlers/buyer-inquiries";
