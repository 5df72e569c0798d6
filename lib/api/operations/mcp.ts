// The tool server lives at /mcp (app/mcp), outside /api, but is documented with the API: its
// auth, rate tier and error shape are the API's.
import { z } from "zod";
import { errorResponses } from "@/lib/schemas/common";
import { defineOperation } from "../operation";

const JsonRpcMessage = z
  .looseObject({
    jsonrpc: z.literal("2.0"),
    id: z.union([z.string(), z.number()]).optional(),
    method: z.string().optional().meta({ example: "tools/call" }),
    params: z.looseObject({}).optional(),
  })
  .meta({ id: "JsonRpcMessage", description: "One JSON-RPC 2.0 message of the Model Context Protocol (batches are not accepted)" });

const JsonRpcError = z
  .looseObject({
    jsonrpc: z.literal("2.0"),
    id: z.union([z.string(), z.number()]).nullable().optional(),
    error: z.object({ code: z.number().int(), message: z.string() }).meta({ description: "JSON-RPC error, e.g. -32600 invalid request" }),
  })
  .meta({ id: "JsonRpcError", description: "A JSON-RPC 2.0 error answer of the MCP transport" });

const MCP_DESCRIPTION =
  "Model Context Protocol over Streamable HTTP (stateless, JSON answers). Authenticate with an API key from `POST /api/keys` " +
  "(`Authorization: Bearer etk_...` or `X-API-Key`); anything else is 401 before MCP handling. Every tool calls the REST route " +
  "it names, so validation, permissions, self-trade rules, audit, idempotency (`idempotencyKey` argument) and rate limits are the API's. " +
  "A tool's failure is a result with `isError: true` whose text is the problem details. Each request counts against the rate tier.";

export const mcpOp = defineOperation({
  method: "POST",
  path: "/mcp",
  operationId: "mcp",
  summary: "MCP tool server (JSON-RPC)",
  description: MCP_DESCRIPTION,
  tags: ["Tool server"],
  access: "user",
  permission: "none",
  action: "mcp.request",
  body: JsonRpcMessage,
  idempotent: false,
  // Tool calls open their own transactions (the REST routes they call); one around them would
  // block every other query on PGlite.
  transactional: false,
  responses: {
    200: { description: "JSON-RPC response", schema: z.looseObject({ jsonrpc: z.literal("2.0") }) },
    202: { description: "Notification accepted" },
    ...errorResponses(400, 401, 406, 413, 415, 429),
    // A message the wrapper accepts but MCP does not (no method, unknown shape) gets the SDK's JSON-RPC error.
    400: { ...errorResponses(400)[400]!, alternatives: { "application/json": JsonRpcError } },
  },
});

const notAllowed = (method: "GET" | "DELETE") =>
  defineOperation({
    method,
    path: "/mcp",
    operationId: `mcp${method === "GET" ? "Get" : "Delete"}`,
    summary: `Not offered: the tool server is stateless (no ${method === "GET" ? "server-sent event stream" : "session to end"})`,
    tags: ["Tool server"],
    access: "public",
    permission: "none",
    action: "mcp.request",
    transactional: false,
    responses: { ...errorResponses(405) },
  });

export const mcpGetOp = notAllowed("GET");
export const mcpDeleteOp = notAllowed("DELETE");
