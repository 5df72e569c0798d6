// A tool call is an operation called through the gate (lib/api/route.ts `invoke`): the tool's
// arguments become the operation's path parameters, query and body, checked by the same schemas,
// permissions, self-trade rules, audit and idempotency as over REST, as the account that owns the
// API key of the /mcp request (already authenticated and counted against its rate tier).
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ApiError } from "@/lib/errors";
import { problemBody } from "@/lib/api/errors";
import { queryObject } from "@/lib/api/body";
import { invoke } from "@/lib/api/route";
import type { Ctx } from "@/lib/gate/context";
import { shapeKeys } from "./schema";
import type { ToolDef, ToolRoute } from "./tools";

export const IDEMPOTENCY_ARG = "idempotencyKey";

export function takesIdempotencyKey(route: ToolRoute): boolean {
  return route.op.method === "POST" && route.op.idempotent !== false;
}

export async function callTool(tool: ToolDef, args: Record<string, unknown>, via: { req: Request; ctx: Ctx }): Promise<CallToolResult> {
  const rest = { ...args };
  if (tool.idArg) {
    // Only the tool's own name for the id reaches the path (a stray `id` never gets here: unknown
    // arguments are refused before dispatch, ./strict.ts).
    rest.id = rest[tool.idArg];
    delete rest[tool.idArg];
  }
  let route: ToolRoute;
  if ("by" in tool.route) {
    const choice = rest[tool.route.by] ?? tool.route.default(via.ctx.actor);
    delete rest[tool.route.by];
    const chosen = typeof choice === "string" ? tool.route.routes[choice] : undefined;
    if (!chosen) {
      const options = Object.keys(tool.route.routes).join(", ");
      return failure(
        problemBody(
          new ApiError("validation_failed", `Invalid ${tool.route.by}: one of ${options}`, { errors: [{ path: tool.route.by, message: `One of ${options}` }] }),
        ),
      );
    }
    route = chosen;
  } else {
    route = tool.route;
  }
  const res = await invoke(route, { req: via.req, ctx: { ...via.ctx, channel: "mcp" } }, splitArguments(route, rest));
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: passed on as text
  }
  if (!res.ok) return failure(body, text);
  return {
    content: [{ type: "text", text: text || "null" }],
    ...(isRecord(body) ? { structuredContent: body } : {}),
  };
}

/** Arguments to path parameters, query (as a URL would carry it) and JSON body, by the operation's schemas. */
function splitArguments(route: ToolRoute, args: Record<string, unknown>) {
  const { op } = route;
  const paramKeys = new Set(shapeKeys(op.params));
  const queryKeys = new Set(shapeKeys(op.query));
  const params: Record<string, string | undefined> = {};
  const query = new URLSearchParams();
  const body: Record<string, unknown> = {};
  let idempotencyKey: string | undefined;
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined) continue;
    if (paramKeys.has(name)) params[name] = scalar(value);
    else if (name === IDEMPOTENCY_ARG && takesIdempotencyKey(route)) {
      if (typeof value === "string") idempotencyKey = value;
    } else if (queryKeys.has(name) || !op.body) appendQuery(query, name, value);
    else body[name] = value;
  }
  return { params, query: queryObject(query), body: op.body ? body : undefined, idempotencyKey };
}

/** Query values as a URL would carry them; arrays repeat the parameter. */
function appendQuery(params: URLSearchParams, name: string, value: unknown): void {
  if (value === null) return;
  if (Array.isArray(value)) for (const v of value) appendQuery(params, name, v);
  else params.append(name, scalar(value) ?? JSON.stringify(value));
}

function scalar(v: unknown): string | undefined {
  return typeof v === "string" || typeof v === "number" || typeof v === "boolean" ? String(v) : undefined;
}

function failure(problem: unknown, text = JSON.stringify(problem)): CallToolResult {
  return { isError: true, content: [{ type: "text", text }], ...(isRecord(problem) ? { structuredContent: problem } : {}) };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
