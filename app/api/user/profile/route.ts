// GET /api/user/profile - your profile
// PUT /api/user/profile - update language and country
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { GET, PUT } from "@/lib/api/handlers/user-profile";
