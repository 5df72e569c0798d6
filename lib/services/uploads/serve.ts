// GET/HEAD /uploads/<key>: the stored bytes with the type sniffed at upload, locked down so a file
// can never act as a page of this site (nosniff, a sandboxing CSP, documents as downloads).
// Public and not rate-limited: these are the images of public product and booth pages.
import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { uploads } from "@/lib/db/schema";
import { isStorageKey, storage, type ByteRange } from "@/lib/storage";
import { contentDisposition } from "./names";
import { isUploadType, kindOf } from "./policy";

const BASE_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "default-src 'none'; sandbox",
  // Keys are never reused, so a stored file never changes.
  "Cache-Control": "public, max-age=31536000, immutable",
  "Accept-Ranges": "bytes",
};

const plain = (status: number, text: string, headers: Record<string, string> = {}) =>
  new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff", ...headers } });

export async function serveUpload(req: Request, segments: string[] | undefined): Promise<Response> {
  const key = (segments ?? []).join("/");
  if (!isStorageKey(key)) return plain(404, "Not found");
  let row: { name: string; size: number; mimeType: string; type: string; id: string } | undefined;
  try {
    const db = await getDb();
    [row] = await db
      .select({ id: uploads.id, name: uploads.name, size: uploads.size, mimeType: uploads.mimeType, type: uploads.type })
      .from(uploads)
      .where(eq(uploads.url, `/uploads/${key}`))
      .limit(1);
  } catch (err) {
    console.error("serving an upload: database unavailable", err);
    return plain(503, "Service unavailable", { "Retry-After": "5" });
  }
  if (!row) return plain(404, "Not found");

  const etag = `"${row.id}"`;
  const headers: Record<string, string> = { ...BASE_HEADERS, "Content-Type": row.mimeType, ETag: etag };
  const isDocument = isUploadType(row.type) && kindOf(row.type) === "document";
  if (isDocument) headers["Content-Disposition"] = contentDisposition("attachment", row.name);
  if (req.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });

  const range = parseRange(req.headers.get("range"), row.size);
  if (range === "unsatisfiable") return new Response(null, { status: 416, headers: { ...headers, "Content-Range": `bytes */${row.size}` } });
  const status = range ? 206 : 200;
  // No Content-Length: Next drops it from route handler responses and sends them chunked.
  if (range) headers["Content-Range"] = `bytes ${range.start}-${range.end}/${row.size}`;
  if (req.method === "HEAD") return new Response(null, { status, headers });

  const stream = await storage().open(key, range ?? undefined);
  // Recorded but gone from storage (deleted by hand, another bucket): as good as missing.
  if (!stream) return plain(404, "Not found");
  return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, { status, headers });
}

/** One `bytes=` range (the common case: resuming, seeking); anything else is answered whole. */
export function parseRange(header: string | null, size: number): ByteRange | "unsatisfiable" | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === "" && m[2] === "")) return null;
  let start: number;
  let end: number;
  if (m[1] === "") {
    // Suffix range: the last N bytes.
    const n = Number(m[2]);
    if (n === 0) return "unsatisfiable";
    start = Math.max(0, size - n);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (m[2] !== "" && Number(m[2]) < start) return null;
  }
  if (start >= size) return "unsatisfiable";
  return { start, end };
}
