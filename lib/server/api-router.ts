// The custom server's routing table for /api/*, derived from app/api: the same route-handler
// functions Next would call, called straight from node:http (Next's request pipeline costs ~30x
// the work of a small JSON handler here). NextAuth's catch-all and the 404 catch-all stay with
// Next: anything this table does not match falls through to Next unchanged.
import { readdirSync, statSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { Readable } from "node:stream";
import { pathToFileURL } from "node:url";
import { responseText } from "@/lib/api/text-response";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
type Entry = { pattern: RegExp; keys: string[]; rank: number[]; handlers: Partial<Record<string, Handler>>; route: string };

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** Next's precedence: at each segment, static before [param] before [...catchAll]. */
function rank(segments: string[]): number[] {
  return segments.map((s) => (s.startsWith("[...") ? 2 : s.startsWith("[") ? 1 : 0));
}

function routeFiles(dir: string, base: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return routeFiles(full, base);
    return name === "route.ts" || name === "route.js" ? [full] : [];
  });
}

export async function loadApiRouter(root: string) {
  const apiDir = path.join(root, "app", "api");
  const entries: Entry[] = [];
  for (const file of routeFiles(apiDir, apiDir)) {
    const segments = path.relative(apiDir, path.dirname(file)).split(path.sep).filter(Boolean);
    // Catch-alls stay with Next (NextAuth's, and the problem+json 404 for unknown paths).
    if (segments.some((s) => s.startsWith("[..."))) continue;
    const keys: string[] = [];
    const source = segments
      .map((s) => {
        if (s.startsWith("[")) {
          keys.push(s.slice(1, -1));
          return "/([^/]+)";
        }
        return "/" + s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      })
      .join("");
    const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    const handlers: Entry["handlers"] = {};
    for (const m of METHODS) if (typeof mod[m] === "function") handlers[m] = mod[m] as Handler;
    entries.push({ pattern: new RegExp(`^/api${source}/?$`), keys, rank: rank(segments), handlers, route: `/api/${segments.join("/")}` });
  }
  entries.sort((a, b) => {
    for (let i = 0; i < Math.max(a.rank.length, b.rank.length); i++) {
      const d = (a.rank[i] ?? -1) - (b.rank[i] ?? -1);
      if (d !== 0) return d;
    }
    return 0;
  });

  function match(method: string, pathname: string): { handler: Handler; params: Record<string, string> } | null {
    for (const e of entries) {
      const m = e.pattern.exec(pathname);
      if (!m) continue;
      const handler = e.handlers[method];
      if (!handler) return null; // Next answers 405 with the right Allow header
      const params: Record<string, string> = {};
      e.keys.forEach((k, i) => {
        try {
          params[k] = decodeURIComponent(m[i + 1]!);
        } catch {
          params[k] = m[i + 1]!;
        }
      });
      return { handler, params };
    }
    return null;
  }

  return { match, size: entries.length };
}

export async function serveDirect(handler: Handler, params: Record<string, string>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) v.forEach((x) => headers.append(k, x));
    else headers.set(k, v);
  }
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  const request = new Request(`http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`, {
    method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>) : undefined,
    // Node's fetch needs this to stream a request body.
    ...(hasBody ? { duplex: "half" } : {}),
  } as RequestInit);
  const response = await handler(request, { params: Promise.resolve(params) });
  res.statusCode = response.status;
  // Security headers: set by server.ts on every response before it gets here (lib/security/headers.ts).
  // A handler may answer before reading the whole body (413, early refusals): the rest of it would
  // otherwise be read as the next request on this keep-alive connection.
  if (hasBody && !req.complete) {
    res.setHeader("Connection", "close");
    req.resume();
  }
  response.headers.forEach((value, key) => {
    if (key !== "set-cookie") res.setHeader(key, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader("Set-Cookie", cookies);
  if (!response.body || method === "HEAD") {
    res.end();
    return;
  }
  // JSON and problem answers: the string itself, without a web stream in between.
  const text = responseText(response);
  if (text !== undefined) {
    res.setHeader("Content-Length", Buffer.byteLength(text));
    res.end(text);
    return;
  }
  const body = Readable.fromWeb(response.body as unknown as import("node:stream/web").ReadableStream<Uint8Array>);
  body.on("error", () => res.destroy());
  body.pipe(res);
}
