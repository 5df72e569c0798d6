// S3-compatible object storage (AWS S3, MinIO, R2, ...) over fetch with hand-made SigV4 signatures.
// Uploads of unknown length go up as a multipart upload in parts buffered in memory (S3 wants a
// length for each request); anything smaller than one part is a single PUT.
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { isStorageKey } from "./keys";
import { EMPTY_SHA256, sha256Hex, signRequest, type Credentials } from "./sigv4";
import type { ByteRange, Storage } from "./types";

export type S3Config = {
  endpoint?: string;
  region: string;
  bucket: string;
  credentials: Credentials;
  forcePathStyle: boolean;
  /** Bytes per multipart part; S3's minimum is 5 MiB (except the last part). */
  partSize?: number;
};

const DEFAULT_PART = 8 * 1024 * 1024;

export class S3Error extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "S3Error";
  }
}

export class S3Storage implements Storage {
  readonly kind = "s3" as const;
  private readonly partSize: number;
  constructor(private readonly cfg: S3Config) {
    this.partSize = cfg.partSize ?? DEFAULT_PART;
  }

  /** The object's URL, path-style or virtual-hosted. */
  objectUrl(key: string, query = ""): URL {
    if (!isStorageKey(key)) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
    const base = new URL(this.cfg.endpoint ?? `https://s3.${this.cfg.region}.amazonaws.com`);
    const prefix = base.pathname.replace(/\/+$/, "");
    if (this.cfg.forcePathStyle) base.pathname = `${prefix}/${this.cfg.bucket}/${key}`;
    else {
      base.hostname = `${this.cfg.bucket}.${base.hostname}`;
      base.pathname = `${prefix}/${key}`;
    }
    base.search = query;
    return base;
  }

  private async send(method: string, url: URL, opts: { headers?: Record<string, string>; body?: Buffer } = {}): Promise<Response> {
    const payloadHash = opts.body ? sha256Hex(opts.body) : EMPTY_SHA256;
    const signed = signRequest({ method, url, headers: opts.headers, payloadHash, region: this.cfg.region, credentials: this.cfg.credentials });
    // fetch sets Host from the URL itself (the same value that was signed).
    delete signed.host;
    // A Buffer is a Uint8Array over an ArrayBuffer; the DOM typing only wants that said.
    const body = opts.body as Uint8Array<ArrayBuffer> | undefined;
    return fetch(url, { method, headers: signed, body, cache: "no-store", redirect: "manual" });
  }

  private async fail(res: Response, what: string): Promise<never> {
    const text = await res.text().catch(() => "");
    const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1];
    throw new S3Error(res.status, `S3 ${what} failed: ${res.status}${code ? ` ${code}` : ""}`);
  }

  async put(key: string, body: Readable, opts: { contentType: string }): Promise<{ size: number }> {
    let uploadId: string | null = null;
    const etags: string[] = [];
    let chunks: Buffer[] = [];
    let buffered = 0;
    let size = 0;
    const uploadPart = async (last: boolean) => {
      const part = Buffer.concat(chunks, buffered);
      chunks = [];
      buffered = 0;
      if (uploadId === null) {
        if (last) {
          // Small object: one PUT, no multipart bookkeeping.
          const res = await this.send("PUT", this.objectUrl(key), { headers: { "content-type": opts.contentType }, body: part });
          if (!res.ok) await this.fail(res, "PUT");
          return;
        }
        const res = await this.send("POST", this.objectUrl(key, "uploads="), { headers: { "content-type": opts.contentType } });
        if (!res.ok) await this.fail(res, "CreateMultipartUpload");
        uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(await res.text())?.[1] ?? null;
        if (!uploadId) throw new S3Error(502, "S3 CreateMultipartUpload returned no UploadId");
      }
      if (part.length === 0 && etags.length > 0) return;
      const n = etags.length + 1;
      const res = await this.send("PUT", this.objectUrl(key, `partNumber=${n}&uploadId=${encodeURIComponent(uploadId)}`), { body: part });
      if (!res.ok) await this.fail(res, `UploadPart ${n}`);
      etags.push(res.headers.get("etag") ?? "");
    };
    try {
      // Awaiting each part pauses the source: at most one part is held in memory.
      for await (const chunk of body) {
        const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
        chunks.push(buf);
        buffered += buf.length;
        size += buf.length;
        if (buffered >= this.partSize) await uploadPart(false);
      }
      await uploadPart(true);
      if (uploadId !== null) await this.complete(key, uploadId, etags);
      return { size };
    } catch (err) {
      if (uploadId !== null) {
        const id: string = uploadId;
        await this.send("DELETE", this.objectUrl(key, `uploadId=${encodeURIComponent(id)}`)).catch(() => {});
      }
      throw err;
    }
  }

  private async complete(key: string, uploadId: string, etags: string[]) {
    const xml =
      "<CompleteMultipartUpload>" +
      etags.map((e, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${xmlEscape(e)}</ETag></Part>`).join("") +
      "</CompleteMultipartUpload>";
    const res = await this.send("POST", this.objectUrl(key, `uploadId=${encodeURIComponent(uploadId)}`), {
      headers: { "content-type": "application/xml" },
      body: Buffer.from(xml, "utf8"),
    });
    if (!res.ok) await this.fail(res, "CompleteMultipartUpload");
    // S3 may answer 200 and still report an error in the body.
    const text = await res.text();
    if (/<Error>/.test(text)) throw new S3Error(502, `S3 CompleteMultipartUpload failed: ${/<Code>([^<]*)<\/Code>/.exec(text)?.[1] ?? "error"}`);
  }

  async open(key: string, range?: ByteRange): Promise<Readable | null> {
    const res = await this.send("GET", this.objectUrl(key), range ? { headers: { range: `bytes=${range.start}-${range.end}` } } : {});
    if (res.status === 404) return null;
    if (!res.ok || !res.body) await this.fail(res, "GET");
    return Readable.fromWeb(res.body as unknown as NodeReadableStream<Uint8Array>);
  }

  async stat(key: string): Promise<{ size: number } | null> {
    const res = await this.send("HEAD", this.objectUrl(key));
    if (res.status === 404) return null;
    if (!res.ok) await this.fail(res, "HEAD");
    return { size: Number(res.headers.get("content-length") ?? 0) };
  }

  async delete(key: string): Promise<void> {
    const res = await this.send("DELETE", this.objectUrl(key));
    if (!res.ok && res.status !== 404) await this.fail(res, "DELETE");
  }
}

function xmlEscape(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
