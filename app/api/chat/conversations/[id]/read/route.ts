// POST /api/chat/conversations/:id/read - mark a conversation read
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { POST } from "@/lib/api/handlers/chat-conversations-id-read";
