// POST /api/upload - stream an image or document to storage (multipart: type, file)
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { POST } from "@/lib/api/handlers/upload";
