// POST /api/chat/messages - send a message (starts or continues a conversation)
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { POST } from "@/lib/api/handlers/chat-messages";
