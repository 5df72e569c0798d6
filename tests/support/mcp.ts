// An MCP client (the official SDK) connected to the test server's /mcp with an API key.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { api, baseUrl } from "./api";

export async function createApiKey(token: string, name = "test key"): Promise<{ id: string; secret: string }> {
  const res = await api<{ key: { id: string }; secret: string }>("/api/keys", { token, json: { name } });
  if (res.status !== 201) throw new Error(`createApiKey: ${res.status} ${res.text}`);
  return { id: res.body.key.id, secret: res.body.secret };
}

export async function mcpClient(key: string, url = `${baseUrl()}/mcp`, header: "authorization" | "x-api-key" = "authorization"): Promise<Client> {
  const client = new Client({ name: "expo-trade-tests", version: "1.0.0" });
  const headers: Record<string, string> = header === "authorization" ? { Authorization: `Bearer ${key}` } : { "X-API-Key": key };
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

export type ToolResult = { isError?: boolean; content: { type: string; text?: string }[]; structuredContent?: Record<string, unknown> };

/** The JSON a tool answered (the REST body on success, the problem details on failure). */
export function toolJson<T = Record<string, unknown>>(result: unknown): T {
  const r = result as ToolResult;
  const text = r.content.find((c) => c.type === "text")?.text ?? "null";
  return JSON.parse(text) as T;
}
