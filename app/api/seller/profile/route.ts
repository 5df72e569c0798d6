// POST /api/seller/profile - open your store
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { POST } from "@/lib/api/handlers/seller-profile";
