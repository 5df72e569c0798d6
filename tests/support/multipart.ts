// Multipart bodies built by hand, so tests control part order, raw file names and streaming, and
// tiny valid files to upload.
import { randomBytes } from "node:crypto";
import { deflateSync } from "node:zlib";
import { crc32 } from "./zip";

export type Part =
  | { name: string; value: string }
  | { name: string; filename: string; data: Uint8Array | (() => AsyncIterable<Uint8Array>); contentType?: string; encodeName?: boolean };

export function multipart(parts: Part[]): { contentType: string; body: () => AsyncGenerator<Uint8Array> } {
  const boundary = `----expo${randomBytes(12).toString("hex")}`;
  async function* body() {
    for (const p of parts) {
      if ("value" in p) {
        yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`);
      } else {
        yield Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; ` +
            // RFC 5987 form: the way to send characters a quoted header value cannot hold (NUL, controls).
            (p.encodeName ? `filename*=UTF-8''${encodeURIComponent(p.filename)}` : `filename="${p.filename}"`) +
            "\r\n" +
            `Content-Type: ${p.contentType ?? "application/octet-stream"}\r\n\r\n`,
        );
        if (typeof p.data === "function") yield* p.data();
        else yield p.data;
        yield Buffer.from("\r\n");
      }
    }
    yield Buffer.from(`--${boundary}--\r\n`);
  }
  return { contentType: `multipart/form-data; boundary=${boundary}`, body };
}

/** POST a multipart body; `stream` sends it chunked from the generator instead of as one buffer. */
export async function postMultipart(url: string, token: string | undefined, parts: Part[], opts: { stream?: boolean } = {}) {
  const { contentType, body } = multipart(parts);
  const headers: Record<string, string> = { "content-type": contentType };
  if (token) headers.authorization = `Bearer ${token}`;
  let payload: BodyInit;
  if (opts.stream) {
    const it = body();
    payload = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { value, done } = await it.next();
        if (done) controller.close();
        else controller.enqueue(value);
      },
    });
  } else {
    const chunks: Uint8Array[] = [];
    for await (const c of body()) chunks.push(c);
    payload = Buffer.concat(chunks);
  }
  const res = await fetch(url, { method: "POST", headers, body: payload, duplex: "half" } as RequestInit);
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON
  }
  return { status: res.status, body: json, text, headers: res.headers };
}

/** `total` bytes, a PDF header then padding, produced in 1 MiB chunks (never held whole). */
export function pdfOfSize(total: number): () => AsyncIterable<Uint8Array> {
  return async function* () {
    const header = Buffer.from("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n", "latin1");
    yield header;
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let left = total - header.length;
    while (left > 0) {
      const n = Math.min(left, chunk.length);
      yield n === chunk.length ? chunk : chunk.subarray(0, n);
      left -= n;
    }
  };
}

export function minimalPdf(): Buffer {
  return Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n", "latin1");
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A valid 1x1 RGBA PNG of the given color. */
export function tinyPng(rgba: [number, number, number, number] = [255, 0, 0, 255]): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0);
  ihdr.writeUInt32BE(1, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const idat = deflateSync(Buffer.from([0, ...rgba]));
  return Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), chunk("IHDR", ihdr), chunk("IDAT", idat), chunk("IEND", Buffer.alloc(0))]);
}
