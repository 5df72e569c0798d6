// GET /api/seller/settings - your store's settings
// PUT /api/seller/settings - update them (AI: store.profile.edit)
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { GET, PUT } from "@/lib/api/handlers/seller-settings";
