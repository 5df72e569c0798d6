// GET /api/categories/tree - the hierarchical category tree
// The handler lives beside its operation in lib/api/handlers (one dispatcher for server.ts, Next and MCP).
export { GET } from "@/lib/api/handlers/categories-tree";
