// GET /api/chat/messages/:conversationId - a conversation's messages (marks them read)
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { GET } from "@/lib/api/handlers/chat-messages-conversationId";
