// The custom server's routing table for /api/*: the handlers of lib/api/handlers (the same
// functions app/api's route files re-export for Next), called straight from node:http (Next's
// request pipeline costs ~30x the work of a small JSON handler here). Paths come from each handler's
// operation. NextAuth's catch-all and the 404 catch-all stay with Next: anything this table does
// not match falls through to Next unchanged.
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { HANDLER_MODULES } from "@/lib/api/handlers";
import type { OperationHandler } from "@/lib/api/route";
import { responseText } from "@/lib/api/text-response";
import type { ApiHead } from "@/lib/security/headers";
import { nodeRequest } from "./node-request";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
type Entry = { pattern: RegExp; keys: string[]; rank: number[]; handlers: Partial<Record<string, Handler>>; route: string };

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** Next's precedence: at each segment, static before {param}. */
function rank(segments: string[]): number[] {
  return segments.map((s) => (s.startsWith("{") ? 1 : 0));
}

/** Every handler with its method, from the one table. */
export function apiHandlers(): { method: string; handler: OperationHandler }[] {
  return HANDLER_MODULES.flatMap((mod) =>
    METHODS.flatMap((m) => {
      const h = (mod as Partial<Record<string, OperationHandler>>)[m];
      return h ? [{ method: m, handler: h }] : [];
    }),
  );
}

export function loadApiRouter() {
  const byPath = new Map<string, Entry>();
  for (const { method, handler } of apiHandlers()) {
    const path = handler.op.path;
    let entry = byPath.get(path);
    if (!entry) {
      const segments = path.split("/").filter(Boolean).slice(1);
      const keys: string[] = [];
      const source = segments
        .map((s) => {
          if (s.startsWith("{")) {
            keys.push(s.slice(1, -1));
            return "/([^/]+)";
          }
          return "/" + s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        })
        .join("");
      byPath.set(path, (entry = { pattern: new RegExp(`^/api${source}/?$`), keys, rank: rank(segments), handlers: {}, route: path }));
    }
    entry.handlers[method] = handler as Handler;
  }
  const entries = [...byPath.values()];
  entries.sort((a, b) => {
    for (let i = 0; i < Math.max(a.rank.length, b.rank.length); i++) {
      const d = (a.rank[i] ?? -1) - (b.rank[i] ?? -1);
      if (d !== 0) return d;
    }
    return 0;
  });

  // Paths without a [param] are looked up before any pattern is tried (the static one wins anyway).
  const exact = new Map<string, Entry>();
  for (const e of entries) if (e.keys.length === 0) for (const p of [e.route, `${e.route}/`]) exact.set(p, e);
  const none: Record<string, string> = Object.freeze({}) as Record<string, string>;

  function match(method: string, pathname: string): { handler: Handler; params: Record<string, string> } | null {
    const hit = exact.get(pathname);
    if (hit) {
      const handler = hit.handlers[method];
      return handler ? { handler, params: none } : null;
    }
    for (const e of entries) {
      const m = e.pattern.exec(pathname);
      if (!m) continue;
      const handler = e.handlers[method];
      if (!handler) return null; // server.ts then answers 405 (lib/server/allow.ts)
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

const INTERNAL_ERROR = JSON.stringify({
  type: "about:blank",
  title: "Internal server error",
  status: 500,
  code: "internal_error",
  detail: "Something went wrong on our side",
});

/**
 * Call a handler with the light request (lib/server/node-request.ts) and write its answer: one
 * writeHead with the precomputed security headers and the handler's, then the body in one end()
 * when the Response was built from a string or bytes (lib/api/text-response.ts), a stream otherwise.
 * Never rejects: a failure is answered 500 (or the connection cut if the head already went out).
 */
export async function serveDirect(handler: Handler, params: Record<string, string>, req: IncomingMessage, res: ServerResponse, head: ApiHead): Promise<void> {
  try {
    await answer(handler, params, req, res, head);
  } catch (err) {
    console.error("direct API dispatch failed", err);
    if (res.headersSent) res.destroy();
    else res.writeHead(500, [...head.flat, "Content-Type", "application/problem+json", "Content-Length", String(INTERNAL_ERROR.length)]).end(INTERNAL_ERROR);
  }
}

async function answer(handler: Handler, params: Record<string, string>, req: IncomingMessage, res: ServerResponse, head: ApiHead): Promise<void> {
  const method = req.method ?? "GET";
  const response = await handler(nodeRequest(req, method), { params: Promise.resolve(params) });
  const text = responseText(response);
  const own: string[] = [];
  let replaced: Set<string> | undefined;
  // Lower-case names; every Set-Cookie on its own, which a flat list keeps.
  for (const [k, v] of response.headers) {
    if (k === "content-length" && text !== undefined) continue;
    if (head.names.has(k)) (replaced ??= new Set()).add(k);
    own.push(k, v);
  }
  const out = replaced ? withoutNames(head.flat, replaced) : head.flat.slice();
  for (const x of own) out.push(x);
  // A handler may answer before reading the whole body (413, early refusals): the rest of it would
  // otherwise be read as the next request on this keep-alive connection. The rest is read and dropped
  // first, up to a bound, so a client still sending it reads the answer instead of meeting a closed
  // socket (a "lingering close", as nginx does); past the bound or the time, the answer goes at once.
  if (method !== "GET" && method !== "HEAD" && !req.complete) {
    out.push("Connection", "close");
    await drained(req);
  }
  // JSON and problem answers: the string itself, without a web stream in between.
  if (text !== undefined) {
    out.push("Content-Length", String(typeof text === "string" ? Buffer.byteLength(text) : text.byteLength));
    res.writeHead(response.status, out);
    res.end(text);
    return;
  }
  if (!response.body) {
    if (response.status !== 204 && response.status !== 304 && !out.includes("content-length")) out.push("Content-Length", "0");
    res.writeHead(response.status, out);
    res.end();
    return;
  }
  res.writeHead(response.status, out);
  const body = Readable.fromWeb(response.body as unknown as import("node:stream/web").ReadableStream<Uint8Array>);
  body.on("error", () => res.destroy());
  body.pipe(res);
}

const LINGER_BYTES = 4 * 1024 * 1024;
const LINGER_MS = 3000;
// A client that has gone quiet (an upload abandoned for idleness) is not waited for: lingering is
// for one still sending. Without it a stalled request's answer waited the whole LINGER_MS and could
// lose the race with the server's request timeout, whose own 408 has no body.
const LINGER_IDLE_MS = 500;

/** Reads and drops the rest of a request's body: resolves at its end, past LINGER_BYTES or LINGER_MS, or after LINGER_IDLE_MS without a byte. */
export function drained(req: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    let read = 0;
    const done = () => {
      clearTimeout(timer);
      clearTimeout(quiet);
      req.off("data", count);
      req.off("end", done);
      req.off("close", done);
      req.off("error", done);
      resolve();
    };
    const count = (chunk: Buffer) => {
      read += chunk.length;
      if (read > LINGER_BYTES) done();
      else quiet.refresh();
    };
    const timer = setTimeout(done, LINGER_MS);
    const quiet = setTimeout(done, LINGER_IDLE_MS);
    req.on("data", count);
    req.on("end", done);
    req.on("close", done);
    req.on("error", done);
    req.resume();
    if (req.complete) done();
  });
}

function withoutNames(flat: readonly string[], names: Set<string>): string[] {
  const out: string[] = [];
  for (let i = 0; i < flat.length; i += 2) if (!names.has(flat[i]!.toLowerCase())) out.push(flat[i]!, flat[i + 1]!);
  return out;
}
