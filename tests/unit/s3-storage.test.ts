import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newStorageKey } from "@/lib/storage/keys";
import { S3Storage } from "@/lib/storage/s3";
import { sha256Hex, signRequest } from "@/lib/storage/sigv4";

// S3Storage against a small in-process S3 stand-in that checks every request's signature the way
// S3 does (recomputed from what arrived on the wire) and implements just the calls we make.
const credentials = { accessKeyId: "AKIDTEST", secretAccessKey: "secret/for+tests" };
const objects = new Map<string, { data: Buffer; type: string }>();
const multipart = new Map<string, { key: string; type: string; parts: Map<number, Buffer> }>();
const log: string[] = [];
let server: Server;
let endpoint: string;

async function readAll(stream: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c);
  return Buffer.concat(chunks);
}

function verify(req: IncomingMessage, body: Buffer): boolean {
  const auth = String(req.headers.authorization ?? "");
  const signed = /SignedHeaders=([^,]+)/.exec(auth)?.[1]?.split(";") ?? [];
  const stamp = String(req.headers["x-amz-date"]);
  const date = new Date(`${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T${stamp.slice(9, 11)}:${stamp.slice(11, 13)}:${stamp.slice(13, 15)}Z`);
  const payloadHash = String(req.headers["x-amz-content-sha256"]);
  if (payloadHash !== sha256Hex(body)) return false;
  const headers = Object.fromEntries(signed.filter((h) => !["host", "x-amz-date", "x-amz-content-sha256"].includes(h)).map((h) => [h, String(req.headers[h])]));
  const url = new URL(req.url!, `http://${req.headers.host}`);
  return signRequest({ method: req.method!, url, headers, payloadHash, region: "eu-test-1", credentials, date }).authorization === auth;
}

beforeAll(async () => {
  server = createServer((req, res) => {
    void (async () => {
      const body = await readAll(req);
      const url = new URL(req.url!, "http://x");
      log.push(`${req.method} ${url.search}`);
      if (!verify(req, body)) return res.writeHead(403).end("<Error><Code>SignatureDoesNotMatch</Code></Error>");
      const key = decodeURIComponent(url.pathname.replace(/^\/bucket\//, ""));
      const q = url.searchParams;
      if (req.method === "POST" && q.has("uploads")) {
        const id = `up${multipart.size + 1}`;
        multipart.set(id, { key, type: String(req.headers["content-type"]), parts: new Map() });
        return res.end(`<InitiateMultipartUploadResult><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`);
      }
      if (req.method === "PUT" && q.has("uploadId")) {
        multipart.get(q.get("uploadId")!)!.parts.set(Number(q.get("partNumber")), body);
        return res.writeHead(200, { etag: `"p${q.get("partNumber")}"` }).end();
      }
      if (req.method === "POST" && q.has("uploadId")) {
        const up = multipart.get(q.get("uploadId")!)!;
        const numbers = [...body.toString().matchAll(/<PartNumber>(\d+)<\/PartNumber><ETag>"p(\d+)"<\/ETag>/g)].map((m) => Number(m[1]));
        objects.set(up.key, { data: Buffer.concat(numbers.map((n) => up.parts.get(n)!)), type: up.type });
        multipart.delete(q.get("uploadId")!);
        return res.end("<CompleteMultipartUploadResult/>");
      }
      if (req.method === "DELETE" && q.has("uploadId")) {
        multipart.delete(q.get("uploadId")!);
        return res.writeHead(204).end();
      }
      if (req.method === "PUT") {
        objects.set(key, { data: body, type: String(req.headers["content-type"]) });
        return res.end();
      }
      const obj = objects.get(key);
      if (req.method === "DELETE") {
        objects.delete(key);
        return res.writeHead(204).end();
      }
      if (!obj) return res.writeHead(404).end("<Error><Code>NoSuchKey</Code></Error>");
      if (req.method === "HEAD") return res.writeHead(200, { "content-length": obj.data.length, "content-type": obj.type }).end();
      const range = /^bytes=(\d+)-(\d+)$/.exec(String(req.headers.range ?? ""));
      if (range) return res.writeHead(206).end(obj.data.subarray(Number(range[1]), Number(range[2]) + 1));
      res.end(obj.data);
    })();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

const store = (partSize = 1024) => new S3Storage({ endpoint, region: "eu-test-1", bucket: "bucket", credentials, forcePathStyle: true, partSize });
const text = (s: Readable | null) => readAll(s! as AsyncIterable<Buffer>);

describe("S3Storage", () => {
  it("puts a small object in one signed PUT, reads it whole and by range, stats and deletes it", async () => {
    const s = store();
    const key = newStorageKey();
    log.length = 0;
    expect(await s.put(key, Readable.from([Buffer.from("hello "), Buffer.from("world")]), { contentType: "text/csv" })).toEqual({ size: 11 });
    expect(log).toEqual(["PUT "]);
    expect(objects.get(key)).toEqual({ data: Buffer.from("hello world"), type: "text/csv" });
    expect((await text(await s.open(key))).toString()).toBe("hello world");
    expect((await text(await s.open(key, { start: 6, end: 10 }))).toString()).toBe("world");
    expect(await s.stat(key)).toEqual({ size: 11 });
    await s.delete(key);
    expect(await s.stat(key)).toBeNull();
    expect(await s.open(key)).toBeNull();
    await s.delete(key);
  });

  it("uploads a larger stream as a multipart upload, one part in memory at a time", async () => {
    const s = store(1024);
    const key = newStorageKey();
    const data = Buffer.from(Array.from({ length: 3600 }, (_, i) => i % 251));
    log.length = 0;
    const chunks = Array.from({ length: 36 }, (_, i) => data.subarray(i * 100, (i + 1) * 100));
    expect(await s.put(key, Readable.from(chunks), { contentType: "application/pdf" })).toEqual({ size: 3600 });
    expect(log).toEqual(["POST ?uploads=", ...[1, 2, 3, 4].map((n) => `PUT ?partNumber=${n}&uploadId=up1`), "POST ?uploadId=up1"]);
    expect(objects.get(key)?.data.equals(data)).toBe(true);
    expect(objects.get(key)?.type).toBe("application/pdf");
  });

  it("aborts the multipart upload when the stream fails, leaving no object", async () => {
    const s = store(1024);
    const key = newStorageKey();
    async function* failing() {
      yield Buffer.alloc(3000);
      throw new Error("limit passed");
    }
    await expect(s.put(key, Readable.from(failing()), { contentType: "application/pdf" })).rejects.toThrow("limit passed");
    expect(objects.has(key)).toBe(false);
    expect(multipart.size).toBe(0);
  });

  it("reports a refused signature as an error", async () => {
    const bad = new S3Storage({
      endpoint,
      region: "eu-test-1",
      bucket: "bucket",
      credentials: { ...credentials, secretAccessKey: "wrong" },
      forcePathStyle: true,
    });
    await expect(bad.put(newStorageKey(), Readable.from([Buffer.from("x")]), { contentType: "text/csv" })).rejects.toThrow(/403 SignatureDoesNotMatch/);
  });

  it("addresses the bucket path-style or virtual-hosted", () => {
    const key = newStorageKey();
    const cfg = { region: "eu-west-1", bucket: "b", credentials, forcePathStyle: false };
    expect(new S3Storage(cfg).objectUrl(key).href).toBe(`https://b.s3.eu-west-1.amazonaws.com/${key}`);
    expect(new S3Storage({ ...cfg, endpoint: "http://minio:9000", forcePathStyle: true }).objectUrl(key).href).toBe(`http://minio:9000/b/${key}`);
    expect(() => new S3Storage(cfg).objectUrl("../etc/passwd")).toThrow();
  });
});
