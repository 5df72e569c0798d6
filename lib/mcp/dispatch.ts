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
import type { ToolDef, ToolRoute } from "./tool-def";

export const IDEMPOTENCY_ARG = "idempotencyKey";

export function takesIdempotencyKey(route: ToolRoute): boolean {
  return route.op.method === "POST" && route.op.idempotent !== false;
}

export async function callTool(tool: ToolDef, args: Record<string, unknown>, via: { req: Request; ctx: Ctx }): Promise<CallToolResult> {
  const rest = { ...args };
  // Only the tool's own names reach the route (a stray route name such as `id` never gets here:
  // unknown arguments are refused before dispatch, ./strict.ts).
  for (const [toolName, routeName] of Object.entries(tool.rename ?? {})) {
    if (!(toolName in rest)) continue;
    rest[routeName] = rest[toolName];
    delete rest[toolName];
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
  if (!res.ok) return isRecord(body) && tool.rename ? failure(toolNames(body, tool.rename)) : failure(body, text);
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

/**
 * A failure carries the problem details as JSON text only: `structuredContent` must match the tool's
 * `outputSchema` (the SDK client validates it whenever it is present, errors included), and a
 * problem is not the tool's output.
 */
export function failure(problem: unknown, text = JSON.stringify(problem)): CallToolResult {
  return { isError: true, content: [{ type: "text", text }] };
}

/** A problem's field paths under the tool's argument names (`productId`, not the route's `id`). */
function toolNames(problem: Record<string, unknown>, rename: Record<string, string>): Record<string, unknown> {
  if (!Array.isArray(problem.errors)) return problem;
  const toTool = new Map(Object.entries(rename).map(([toolName, routeName]) => [routeName, toolName]));
  const errors = problem.errors.map((e: unknown) => {
    if (!isRecord(e) || typeof e.path !== "string") return e;
    const [head, ...tail] = e.path.split(".");
    const renamed = toTool.get(head!);
    return renamed ? { ...e, path: [renamed, ...tail].join(".") } : e;
  });
  return { ...problem, errors };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
