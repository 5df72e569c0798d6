// HTTP for the sitemaps: conditional GET (ETag / Last-Modified, 304), crawler-friendly caching
// headers, and the built bodies kept gzipped on globalThis (a product chunk is ~10 MB as text,
// ~10x less gzipped), keyed by name and ETag. Called by the route files under app/ and, in
// production, straight from server.ts (no Next pipeline for a crawler's or a flood's requests).
import { promisify } from "node:util";
import { gunzip, gzip } from "node:zlib";
import { textResponse } from "@/lib/api/text-response";
import { getDb } from "@/lib/db/client";
import { childDocument, sitemapIndexDocument, type Sitemap, type Version } from "./sitemap";

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

// A crawler may keep a copy for five minutes, then revalidates (a 304 costs one small query).
const CACHE_CONTROL = "public, max-age=300";
const CACHE_BYTES = 64 * 1024 * 1024;

type Entry = { etag: string; lastModified: number; gz: Buffer };
type Cache = { entries: Map<string, Entry>; bytes: number };
const KEY = Symbol.for("expo-trade.sitemap-bodies");
type G = typeof globalThis & { [KEY]?: Cache };
const cache = (): Cache => ((globalThis as G)[KEY] ??= { entries: new Map(), bytes: 0 });

function remember(name: string, entry: Entry) {
  const c = cache();
  const old = c.entries.get(name);
  if (old) c.bytes -= old.gz.length;
  c.entries.delete(name);
  c.entries.set(name, entry);
  c.bytes += entry.gz.length;
  // Least recently used first (a hit re-inserts its entry).
  for (const [n, e] of c.entries) {
    if (c.bytes <= CACHE_BYTES || n === name) break;
    c.entries.delete(n);
    c.bytes -= e.gz.length;
  }
}

function cached(name: string, etag: string): Entry | undefined {
  const c = cache();
  const e = c.entries.get(name);
  if (!e || e.etag !== etag) return undefined;
  c.entries.delete(name);
  c.entries.set(name, e);
  return e;
}

const opaque = (tag: string) => tag.trim().replace(/^W\//, "");

/** RFC 9110: If-None-Match (weak comparison) wins; If-Modified-Since only without it. */
export function notModified(req: Request, v: Version): boolean {
  const inm = req.headers.get("if-none-match");
  if (inm !== null) return inm.trim() === "*" || inm.split(",").some((t) => opaque(t) === opaque(v.etag));
  const ims = Date.parse(req.headers.get("if-modified-since") ?? "");
  return Number.isFinite(ims) && Math.floor(v.lastModified / 1000) * 1000 <= ims;
}

function acceptsGzip(req: Request): boolean {
  for (const part of (req.headers.get("accept-encoding") ?? "").toLowerCase().split(",")) {
    const [coding, ...params] = part.split(";").map((x) => x.trim());
    if (coding !== "gzip" && coding !== "*") continue;
    const q = params.find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  }
  return false;
}

function headers(v: Version): Headers {
  return new Headers({
    ETag: v.etag,
    "Last-Modified": new Date(Math.floor(v.lastModified / 1000) * 1000).toUTCString(),
    "Cache-Control": CACHE_CONTROL,
    Vary: "Accept-Encoding",
  });
}

const notFound = () =>
  textResponse(
    JSON.stringify({
      type: "about:blank",
      title: "Not found",
      status: 404,
      code: "not_found",
      detail: "No such sitemap",
    }),
    {
      status: 404,
      headers: {
        "Content-Type": "application/problem+json",
        "Cache-Control": "no-store",
      },
    },
  );

/** `gzip: false` where something after us compresses (Next's pipeline does; server.ts does not). */
export type Serve = { gzip?: boolean };

async function respond(req: Request, name: string, doc: Sitemap | null, opts: Serve): Promise<Response> {
  if (!doc) return notFound();
  if (doc.version && notModified(req, doc.version)) return new Response(null, { status: 304, headers: headers(doc.version) });
  let entry = doc.version ? cached(name, doc.version.etag) : undefined;
  if (!entry) {
    const built = await doc.build();
    if (!built) return notFound();
    entry = {
      etag: built.etag,
      lastModified: built.lastModified,
      gz: await gzipAsync(built.xml),
    };
    remember(name, entry);
    if (notModified(req, entry)) return new Response(null, { status: 304, headers: headers(entry) });
  }
  const h = headers(entry);
  h.set("Content-Type", "application/xml; charset=utf-8");
  if (opts.gzip !== false && acceptsGzip(req)) {
    h.set("Content-Encoding", "gzip");
    return textResponse(new Uint8Array(entry.gz.buffer, entry.gz.byteOffset, entry.gz.length), { status: 200, headers: h });
  }
  return textResponse(await gunzipAsync(entry.gz).then((b) => b.toString("utf8")), { status: 200, headers: h });
}

// GET /sitemap.xml - the sitemap index
export async function serveSitemapIndex(req: Request, opts: Serve = {}): Promise<Response> {
  return respond(req, "index", await sitemapIndexDocument(await getDb()), opts);
}

// GET /sitemaps/<name>.xml - one child sitemap
export async function serveSitemapChild(req: Request, name: string, opts: Serve = {}): Promise<Response> {
  return respond(req, name, await childDocument(await getDb(), name), opts);
}

/** The sitemap a path names, for server.ts's direct dispatch (null: not a sitemap path). */
export function sitemapRoute(pathname: string): ((req: Request) => Promise<Response>) | null {
  if (pathname === "/sitemap.xml") return serveSitemapIndex;
  const m = /^\/sitemaps\/([^/]+)$/.exec(pathname);
  return m ? (req) => serveSitemapChild(req, m[1]!) : null;
}
