// GET /api/booths - the booths of your store, drafts included
// POST /api/booths - create a booth in your store (AI_SELLER: its guardian's)
// PUT /api/booths - publish or decorate a booth of the signed-in human's store (AI: 404)
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { GET, POST, PUT } from "@/lib/api/handlers/booths";
