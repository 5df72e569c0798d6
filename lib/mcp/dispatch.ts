// A tool call is a REST call: build the Request the route would get over HTTP (same method, path,
// query, body, the caller's credentials and address), call the handler app/api exports, and turn
// its Response into a tool result.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ApiError } from "@/lib/errors";
import { problemBody } from "@/lib/api/errors";
import { markInternal } from "@/lib/api/internal";
import { REMOTE_ADDR_HEADER } from "@/lib/auth/cookies";
import { shapeKeys } from "./schema";
import type { ToolDef, ToolRoute } from "./tools";

export const IDEMPOTENCY_ARG = "idempotencyKey";

/** Headers of the /mcp request that the REST route needs to see the same caller. */
const FORWARDED = ["authorization", "x-api-key", REMOTE_ADDR_HEADER, "x-forwarded-for", "user-agent", "accept-language"];

export function takesIdempotencyKey(route: ToolRoute): boolean {
  return route.op.method === "POST" && route.op.idempotent !== false;
}

export async function callTool(tool: ToolDef, args: Record<string, unknown>, outer: Request): Promise<CallToolResult> {
  const rest = { ...args };
  let route: ToolRoute;
  if ("by" in tool.route) {
    const choice = rest[tool.route.by] ?? tool.route.default;
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
  const res = await route.handler(buildRequest(route, rest, outer), { params: Promise.resolve(pathParams(route, rest)) });
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

function buildRequest(route: ToolRoute, args: Record<string, unknown>, outer: Request): Request {
  const { op } = route;
  const paramKeys = new Set(shapeKeys(op.params));
  const queryKeys = new Set(shapeKeys(op.query));
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(scalar(args[name]) ?? ""));
  const url = new URL(path, outer.url);
  const body: Record<string, unknown> = {};
  const headers = new Headers({ accept: "application/json" });
  for (const name of FORWARDED) {
    const v = outer.headers.get(name);
    if (v !== null) headers.set(name, v);
  }
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined || paramKeys.has(name)) continue;
    if (name === IDEMPOTENCY_ARG && takesIdempotencyKey(route)) {
      if (typeof value === "string") headers.set("idempotency-key", value);
    } else if (queryKeys.has(name) || !op.body) {
      appendQuery(url.searchParams, name, value);
    } else {
      body[name] = value;
    }
  }
  if (op.body) headers.set("content-type", "application/json");
  return markInternal(new Request(url, { method: op.method, headers, body: op.body ? JSON.stringify(body) : undefined }));
}

function pathParams(route: ToolRoute, args: Record<string, unknown>): Record<string, string | undefined> {
  return Object.fromEntries(shapeKeys(route.op.params).map((k) => [k, scalar(args[k])]));
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
