// The MCP server behind POST /mcp: stateless Streamable HTTP with JSON answers, a fresh server and
// transport per request (the SDK's stateless mode forbids reusing a transport), tools from ./tools.
// The low-level `Server` is used on purpose: McpServer would validate arguments against zod
// itself and answer with its own error text; here the REST route validates, so a bad argument is
// the API's `validation_failed` problem, and the listed schemas are exactly what the route accepts.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Ctx } from "@/lib/gate/context";
import { problemResponse } from "@/lib/api/errors";
import { ApiError } from "@/lib/errors";
import pkg from "@/package.json";
import { annotationsFor } from "./annotations";
import { callTool, IDEMPOTENCY_ARG, takesIdempotencyKey } from "./dispatch";
import { describeArguments, renameArguments } from "./arguments";
import { outputSchemaFor } from "./output";
import { mergeInputSchemas } from "./schema";
import { unknownArgumentsRefusal } from "./strict";
import { routesOf, TOOLS, TOOLS_BY_NAME, type ToolDef } from "./tools";

const INSTRUCTIONS =
  "Expo Trade, a B2B exhibition marketplace. Each tool is one REST route of /api (see /api/openapi) acting as the account " +
  "that owns the API key, under its permissions. Failures are results with isError and RFC 9457 problem details " +
  "(code: validation_failed, permission_denied, self_trade_forbidden, not_found, rate_limited, ...).";

function describe(tool: ToolDef): Tool {
  const routes = routesOf(tool);
  const extra: Record<string, object> = {};
  if ("by" in tool.route) {
    extra[tool.route.by] = { type: "string", enum: Object.keys(tool.route.routes), description: tool.route.description };
  }
  if (routes.some(takesIdempotencyKey)) {
    extra[IDEMPOTENCY_ARG] = {
      type: "string",
      maxLength: 255,
      description: "Retry safely: the same key with the same arguments returns the first result (24 h)",
    };
  }
  const calls = routes.map((r) => `${r.op.method} ${r.op.path}`).join(" or ");
  const needs = [...new Set(routes.map((r) => r.op.permission).filter((p) => p !== "none"))];
  const ops = routes.map((r) => r.op);
  const outputSchema = outputSchemaFor(ops);
  return {
    name: tool.name,
    title: routes[0]!.op.summary,
    description: `${tool.description} Calls ${calls}.${needs.length ? ` AI accounts need ${needs.map((p) => `\`${p}\``).join(" / ")}.` : ""}`,
    inputSchema: describeArguments(renameArguments(mergeInputSchemas(ops, extra), tool.rename), tool),
    ...(outputSchema ? { outputSchema } : {}),
    annotations: annotationsFor(ops),
  };
}

let listed: Tool[] | undefined;
export function toolList(): Tool[] {
  return (listed ??= TOOLS.map(describe));
}

let listedByName: Map<string, Tool> | undefined;
function listedTool(name: string): Tool | undefined {
  return (listedByName ??= new Map(toolList().map((t) => [t.name, t]))).get(name);
}

/** Answer one MCP POST whose JSON body the route wrapper has already read and size-checked. */
export async function handleMcpRequest(req: Request, ctx: Ctx, parsedBody: unknown): Promise<Response> {
  const server = new Server({ name: "expo-trade", version: pkg.version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolList() }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = TOOLS_BY_NAME.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    const args = request.params.arguments ?? {};
    return unknownArgumentsRefusal(listedTool(tool.name)!, args, tool.rename) ?? callTool(tool, args, { req, ctx });
  });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(req, { parsedBody });
  } finally {
    // JSON mode: the answer is complete once handleRequest resolves.
    await server.close();
  }
}

/**
 * GET (event stream) and DELETE (end session) have no meaning without sessions: 405 problem+json
 * with `Allow: POST`, like every other 405 (contract 9.5); MCP clients read the status.
 */
export function mcpMethodNotAllowed(method: string): Response {
  const err = new ApiError("method_not_allowed", `${method} is not offered by this stateless tool server; send JSON-RPC requests with POST /mcp`);
  return problemResponse(err, undefined, { Allow: "POST" });
}
