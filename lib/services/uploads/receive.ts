// Reads a multipart upload as a stream (busboy): the file goes to storage while it arrives, its
// first bytes decide what it is, and a byte count stops it at the limit. Nothing is buffered
// beyond the sniffing head, and whatever fails leaves nothing in storage.
import { Readable, Transform } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";
import { ApiError } from "@/lib/errors";
import { newStorageKey, storage } from "@/lib/storage";
import { sanitizeFileName } from "./names";
import {
  ACCEPTED,
  isUploadType,
  kindOf,
  LIMITS,
  MAX_UPLOAD,
  MULTIPART_OVERHEAD,
  UPLOAD_TYPES,
  uploadIdleTimeoutMs,
  type UploadKind,
  type UploadType,
} from "./policy";
import { HEAD_BYTES, OOXML, sniff, sniffOfficeZip, type Sniffed } from "./sniff";
import { inspectZip } from "./zip-check";

export type Received = { type: UploadType; key: string; size: number; mime: string; name: string };
type StoredFile = { key: string; size: number; sniffed: Sniffed; name: string };

/** After a refusal the rest of the body is read and dropped (so the client sees the answer), up to this much. */
const DRAIN_AFTER_FAILURE = 16 * 1024 * 1024;

export const tooLarge = (limit: number) => new ApiError("payload_too_large", `The file exceeds ${limit / (1024 * 1024)} MB`);
const unsupported = (accepted: string) => new ApiError("unsupported_media_type", `The file's content is not an accepted format; expected ${accepted}`);
const fieldError = (field: string, message: string) => new ApiError("validation_failed", `${field}: ${message}`, { errors: [{ path: field, message }] });

/**
 * Receive `type` and `file` in either order. `checkType` runs as soon as the type is known (it
 * throws to refuse, e.g. an AI account asking for `logo`).
 */
export function receiveUpload(req: Request, checkType: (type: UploadType) => void): Promise<Received> {
  const contentType = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    throw new ApiError("unsupported_media_type", "Send multipart/form-data with the fields `type` and `file`");
  }
  if (!req.body) throw fieldError("file", "Required");
  const source = Readable.fromWeb(req.body as unknown as NodeReadableStream<Uint8Array>);
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (declared > MAX_UPLOAD + MULTIPART_OVERHEAD) {
    dropRest(source);
    throw tooLarge(MAX_UPLOAD);
  }
  let bb: busboy.Busboy;
  try {
    // preservePath: the whole name reaches sanitizeFileName, the one place that makes names safe.
    // utf8: browsers send non-ASCII names as raw UTF-8, not latin1 (busboy's default).
    bb = busboy({
      headers: { "content-type": contentType },
      preservePath: true,
      defParamCharset: "utf8",
      limits: { fields: 10, fieldSize: 1024, parts: 20, headerPairs: 50 },
    });
  } catch {
    dropRest(source);
    throw new ApiError("unsupported_media_type", "Malformed multipart/form-data (no boundary)");
  }

  return new Promise<Received>((resolve, reject) => {
    let settled = false;
    let type: UploadType | undefined;
    let file: Promise<StoredFile> | undefined;
    const abort = new AbortController();
    let total = 0;

    // A client that stops sending must not hold a parser, a file handle and a partial file.
    const idleMs = uploadIdleTimeoutMs();
    const idle = setTimeout(() => fail(new ApiError("request_timeout", `Nothing arrived for ${idleMs / 1000} s; the upload was abandoned`)), idleMs);
    source.once("end", () => clearTimeout(idle));

    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(idle);
      const apiErr = toApiError(err);
      source.unpipe();
      dropRest(source);
      abort.abort(apiErr);
      // Answer only once the partial or finished object is gone, so nothing outlives a refusal.
      void (file ?? Promise.resolve(null))
        .then((stored) => (stored ? storage().delete(stored.key) : undefined))
        .catch(() => {})
        .finally(() => reject(apiErr));
    };

    const meter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        idle.refresh();
        total += chunk.length;
        if (total > MAX_UPLOAD + MULTIPART_OVERHEAD) fail(tooLarge(type ? LIMITS[kindOf(type)] : MAX_UPLOAD));
        done(null, chunk);
      },
    });

    bb.on("field", (name, value) => {
      if (name !== "type" || type !== undefined || settled) return;
      if (!isUploadType(value)) return fail(fieldError("type", `Must be one of: ${UPLOAD_TYPES.join(", ")}`));
      try {
        checkType(value);
      } catch (err) {
        return fail(err);
      }
      type = value;
    });

    bb.on("file", (name, stream, info) => {
      if (name !== "file" || file || settled) {
        stream.resume();
        return;
      }
      const received = receiveFile(stream, info.filename, () => type, abort.signal);
      file = received;
      received.catch(fail);
    });

    bb.on("close", () => {
      if (settled) return;
      void finish().then((result) => {
        if (settled) return;
        settled = true;
        clearTimeout(idle);
        resolve(result);
      }, fail);
    });
    bb.on("error", () => fail(new ApiError("validation_failed", "Malformed multipart/form-data")));
    source.on("error", () => fail(new ApiError("validation_failed", "The upload was interrupted")));

    async function finish(): Promise<Received> {
      if (!file) throw fieldError("file", "Required");
      const stored = await file;
      if (!type) throw fieldError("type", "Required");
      if (stored.sniffed.kind !== kindOf(type)) throw unsupported(ACCEPTED[kindOf(type)]);
      let mime = stored.sniffed.mime;
      if (stored.sniffed.needsZipCheck) {
        const stream = await storage().open(stored.key);
        mime = (stream && (await sniffOfficeZip(stream))) ?? "";
        if (!mime) throw unsupported(ACCEPTED.document);
      }
      if (OOXML.has(mime)) {
        const zip = await inspectZip(storage(), stored.key, stored.size);
        if (!zip.ok) throw new ApiError("unsupported_media_type", `The Office file is refused: ${zip.reason}`);
      }
      return { type, key: stored.key, size: stored.size, mime, name: stored.name };
    }

    source.pipe(meter).pipe(bb);
  });
}

async function receiveFile(file: Readable, filename: string | undefined, currentType: () => UploadType | undefined, signal: AbortSignal): Promise<StoredFile> {
  const name = sanitizeFileName(filename);
  const { head, ended } = await readHead(file, HEAD_BYTES, signal);
  const sniffed = await sniff(head, ended, name);
  const type = currentType();
  const expected: UploadKind | undefined = type && kindOf(type);
  if (!sniffed || (expected && sniffed.kind !== expected)) {
    file.resume();
    throw unsupported(expected ? ACCEPTED[expected] : `${ACCEPTED.image} (images) or ${ACCEPTED.document} (documents)`);
  }
  if (signal.aborted) {
    file.resume();
    throw signal.reason;
  }
  // The sniffed kind sets the limit, so an image stops at 10 MB even before its `type` arrives.
  const limit = LIMITS[sniffed.kind];
  let size = 0;
  const limiter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > limit) done(tooLarge(limit));
      else done(null, chunk);
    },
  });
  signal.addEventListener("abort", () => limiter.destroy(signal.reason as Error), { once: true });
  limiter.write(head);
  if (ended) limiter.end();
  else file.pipe(limiter);
  const key = newStorageKey();
  try {
    const { size: stored } = await storage().put(key, limiter, { contentType: sniffed.mime });
    return { key, size: stored, sniffed, name };
  } catch (err) {
    // Never destroy busboy's stream (the parser would stall): read the rest and drop it.
    file.unpipe(limiter);
    file.resume();
    throw err;
  }
}

/**
 * Read and drop what the client still sends after a refusal: a client that is still sending may
 * not read the answer before its body is taken. Past DRAIN_AFTER_FAILURE the connection is cut.
 */
function dropRest(source: Readable) {
  let dropped = 0;
  source.on("data", (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DRAIN_AFTER_FAILURE) source.destroy();
  });
  source.on("error", () => {});
  source.resume();
}

/** The first `bytes` of a stream (or all of it when shorter), leaving the stream paused. */
function readHead(file: Readable, bytes: number, signal: AbortSignal): Promise<{ head: Buffer; ended: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const cleanup = () => {
      file.off("data", onData).off("end", onEnd).off("error", onError);
      signal.removeEventListener("abort", onAbort);
    };
    const done = (ended: boolean) => {
      cleanup();
      resolve({ head: Buffer.concat(chunks, length), ended });
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= bytes) {
        file.pause();
        done(false);
      }
    };
    const onEnd = () => done(true);
    // busboy fails the file stream when the form is cut short: the client's fault, not ours.
    const onError = () => {
      cleanup();
      reject(new ApiError("validation_failed", "Malformed multipart/form-data (the file part is cut short)"));
    };
    const onAbort = () => {
      cleanup();
      file.resume();
      reject(signal.reason as Error);
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    file.on("data", onData).once("end", onEnd).once("error", onError);
  });
}

function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  // Storage trouble (disk full, object store down) is an outage, not the client's fault.
  console.error("upload storage failed:", err);
  return new ApiError("service_unavailable", "File storage is unavailable; retry shortly", { headers: { "Retry-After": "5" } });
}
