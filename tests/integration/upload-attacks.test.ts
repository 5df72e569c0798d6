import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { request } from "node:http";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { minimalPdf, postMultipart, tinyPng, type Part } from "../support/multipart";
import { startServer, type RunningServer } from "../support/server";
import { contentTypesXml, officeFile, zerosDeflated, zipOf } from "../support/zip";

// Attacks on POST /api/upload and /uploads/<key> (issue #7, point 3), on a server of this file's
// own: short timeouts, and an upload directory and process the test can watch.
const IDLE_TIMEOUT_MS = 1000;
const REQUEST_TIMEOUT_MS = 4000;
const MiB = 1024 * 1024;
const KEY_PATH = /^[0-9a-f]{2}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
let server: RunningServer;
let token: string;
let userId: string;
/** Uploads answered 201: at the end there must be exactly this many rows and files. */
const stored: string[] = [];

beforeAll(async () => {
  server = await startServer(
    {
      DATABASE_URL: process.env.DATABASE_URL ?? "",
      UPLOAD_IDLE_TIMEOUT_MS: String(IDLE_TIMEOUT_MS),
      HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    },
    { timeoutMs: 200_000 },
  );
  const username = `ua_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const post = (p: string, body: unknown) =>
    fetch(`${server.url}${p}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect((await post("/api/accounts/create", { email: `${username}@example.test`, username, password: "long-enough-1", role: "SELLER" })).status).toBe(201);
  const login = (await (await post("/api/auth/login", { email: username, password: "long-enough-1" })).json()) as { token: string; user: { id: string } };
  token = login.token;
  userId = login.user.id;
}, 240_000);

afterAll(async () => {
  await server?.stop();
});

async function upload(parts: Part[], opts: { stream?: boolean } = {}) {
  const res = await postMultipart(`${server.url}/api/upload`, token, parts, opts);
  if (res.status === 201) stored.push(res.body.url as string);
  return res;
}

const uploadDir = () => path.join(server.dataDir, "uploads");
/** Every file under the upload directory, temporary ones included, relative to it. */
function storedFiles(dir = uploadDir()): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((n) => {
    const full = path.join(dir, n);
    return statSync(full).isDirectory() ? storedFiles(full) : [path.relative(uploadDir(), full)];
  });
}
const rssBytes = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.child.pid}/status`, "utf8"))![1]) * 1024;
const openFds = () => readdirSync(`/proc/${server.child.pid}/fd`).length;

/** Sample the server's memory while `fn` runs; the peak growth over the start. */
async function peakRssGrowth<T>(fn: () => Promise<T>): Promise<{ result: T; growth: number }> {
  const before = rssBytes();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssBytes())), 25);
  try {
    const result = await fn();
    return { result, growth: Math.max(peak, rssBytes()) - before };
  } finally {
    clearInterval(sampler);
  }
}

/**
 * A multipart upload over node:http whose body the test writes by hand: `write` gets a function
 * that sends bytes (false once the server answered or hung up). Resolves with the answer.
 */
function handUpload(
  headers: Record<string, string>,
  write: (send: (b: Buffer) => Promise<boolean>) => Promise<void>,
): Promise<{ status: number; body: string; at: number; closedAt: Promise<number> }> {
  return new Promise((resolve, reject) => {
    let answered = false;
    let gone = false;
    const req = request(`${server.url}/api/upload`, { method: "POST", headers: { authorization: `Bearer ${token}`, ...headers } });
    let onClosed!: (t: number) => void;
    const closedAt = new Promise<number>((r) => (onClosed = r));
    req.on("socket", (s) => s.on("close", () => onClosed(Date.now())));
    req.on("response", (res) => {
      answered = true;
      let body = "";
      res.on("data", (d: Buffer) => (body += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode!, body, at: Date.now(), closedAt }));
      res.on("error", () => resolve({ status: res.statusCode!, body, at: Date.now(), closedAt }));
    });
    req.on("error", (err) => {
      gone = true;
      // The server may answer and hang up while the client is still writing: the write fails
      // (EPIPE) a moment before the answer is parsed. Give the answer that moment.
      if (!answered) setTimeout(() => !answered && reject(err), 250);
    });
    const send = (b: Buffer) =>
      new Promise<boolean>((r) => {
        if (answered || gone) return r(false);
        if (req.write(b)) r(true);
        else req.once("drain", () => r(!answered && !gone));
      });
    void write(send).catch(() => {});
  });
}

const within = <T>(p: Promise<T>, ms: number, what: string) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms))]);

function multipartHead(boundary: string, filename: string) {
  return Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nboothDocument\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
}

describe("upload attacks", () => {
  it("decides the type by content: liars are refused, polyglots are stored as what their bytes are and served inert", async () => {
    const html = "<html><body><script>document.cookie='pwned=1';fetch('/api/health?pwned')</script></body></html>";
    const jpeg = Buffer.concat([Buffer.from("ffd8ffe000104a46494600010100000100010000", "hex"), Buffer.alloc(64), Buffer.from("ffd9", "hex")]);
    const cases: { type: string; filename: string; declared: string; data: Buffer; status: number; mime?: string }[] = [
      // Content that lies about its type (name and declared Content-Type both wrong).
      { type: "product_image", filename: "photo.jpg", declared: "image/jpeg", data: tinyPng(), status: 201, mime: "image/png" },
      { type: "product_image", filename: "photo.png", declared: "image/png", data: jpeg, status: 201, mime: "image/jpeg" },
      { type: "product_image", filename: "page.png", declared: "image/png", data: Buffer.from(html), status: 415 },
      { type: "boothDocument", filename: "invoice.pdf", declared: "application/pdf", data: Buffer.from(html), status: 415 },
      {
        type: "boothDocument",
        filename: "setup.pdf",
        declared: "application/pdf",
        data: Buffer.concat([Buffer.from("MZ\x90\x00\x03\x00\x00\x00", "latin1"), Buffer.alloc(512)]),
        status: 415,
      },
      // SVG with script, however it is dressed up: BOM and XML prolog, gzipped (svgz), named as PNG.
      {
        type: "product_image",
        filename: "logo.png",
        declared: "image/png",
        data: Buffer.from(`\ufeff<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`),
        status: 415,
      },
      {
        type: "boothLogo",
        filename: "logo.svgz",
        declared: "image/svg+xml",
        data: Buffer.from("1f8b0800000000000003b3292e4b57c8cc2b4f0500", "hex"),
        status: 415,
      },
      // Polyglots: valid images/documents that also hold HTML or script. Stored as what they are.
      {
        type: "product_image",
        filename: "poly.png",
        declared: "text/html",
        data: Buffer.concat([tinyPng(), Buffer.from(html)]),
        status: 201,
        mime: "image/png",
      },
      {
        type: "product_image",
        filename: "poly.gif",
        declared: "application/javascript",
        data: Buffer.from(`GIF89a=1;document.title='pwned';//\x01\x00\x01\x00\x00\x00\x00;`, "latin1"),
        status: 201,
        mime: "image/gif",
      },
      {
        type: "boothDocument",
        filename: "poly.pdf",
        declared: "text/html",
        data: Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.from(html)]),
        status: 201,
        mime: "application/pdf",
      },
      // HTML is UTF-8 text: under a .csv name it is a CSV, served as a text/csv download.
      { type: "boothDocument", filename: "page.csv", declared: "text/html", data: Buffer.from(html), status: 201, mime: "text/csv" },
    ];
    for (const c of cases) {
      const res = await upload([
        { name: "type", value: c.type },
        { name: "file", filename: c.filename, data: c.data, contentType: c.declared },
      ]);
      expect(res.status, `${c.filename}: ${res.text}`).toBe(c.status);
      if (c.status !== 201) {
        expect(res.body.code).toBe("unsupported_media_type");
        continue;
      }
      expect(res.body.mimeType, c.filename).toBe(c.mime);
      const served = await fetch(`${server.url}${res.body.url as string}`);
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type"), c.filename).toBe(c.mime);
      expect(served.headers.get("x-content-type-options")).toBe("nosniff");
      expect(served.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
      const disposition = served.headers.get("content-disposition");
      if (c.type === "boothDocument") expect(disposition, c.filename).toMatch(/^attachment; /);
      else expect(disposition).toBeNull();
      expect(Buffer.from(await served.arrayBuffer()).equals(c.data)).toBe(true);
    }
  });

  it("refuses zip bombs posing as XLSX without inflating them, in bounded time and memory", async () => {
    const xlsxTypes = { name: "[Content_Types].xml", data: Buffer.from(contentTypesXml("xlsx")) };
    const workbook = { name: "xl/workbook.xml", data: Buffer.from("<workbook/>") };
    const bombs: [string, Buffer][] = [
      // The part sniffing must read is itself the bomb: 1 GiB of zeros in about 1 MB.
      ["types-bomb.xlsx", zipOf([zerosDeflated("[Content_Types].xml", 1024), workbook])],
      // A proper-looking workbook whose sheet inflates to 1 GiB.
      ["sheet-bomb.xlsx", zipOf([xlsxTypes, workbook, zerosDeflated("xl/worksheets/sheet1.xml", 1024)])],
      // 2,000 directory entries sharing one 100 MiB kernel (the overlap trick: 200 GiB from 100 KB).
      [
        "overlap-bomb.xlsx",
        zipOf(
          [xlsxTypes, workbook, zerosDeflated("xl/media/kernel.bin", 100)],
          Array.from({ length: 2000 }, (_, i) => ({ name: `xl/media/image${i}.bin`, of: 2 })),
        ),
      ],
      // Same trick kept small, so only the overlap itself gives it away.
      [
        "overlap-small.xlsx",
        zipOf(
          [xlsxTypes, workbook, zerosDeflated("xl/media/kernel.bin", 1)],
          Array.from({ length: 20 }, (_, i) => ({ name: `xl/media/image${i}.bin`, of: 2 })),
        ),
      ],
      // 20,000 tiny entries.
      ["many-entries.xlsx", zipOf([xlsxTypes, workbook, ...Array.from({ length: 20_000 }, (_, i) => ({ name: `xl/e${i}`, data: Buffer.alloc(0) }))])],
    ];
    const before = storedFiles();
    for (const [filename, data] of bombs) {
      const t0 = Date.now();
      const { result: res, growth } = await peakRssGrowth(() =>
        upload([
          { name: "type", value: "boothDocument" },
          { name: "file", filename, data },
        ]),
      );
      const ms = Date.now() - t0;
      console.log(`zip bomb ${filename} (${data.length} bytes): ${res.status} in ${ms} ms, server RSS +${(growth / MiB).toFixed(1)} MiB`);
      expect(res.status, `${filename}: ${res.text}`).toBe(415);
      expect(res.body.code).toBe("unsupported_media_type");
      expect(growth, filename).toBeLessThan(64 * MiB);
      expect(ms, filename).toBeLessThan(10_000);
    }
    expect(storedFiles()).toEqual(before);
    // A real workbook still passes, also one that expands a lot but within reason.
    const big = await upload([
      { name: "type", value: "boothDocument" },
      { name: "file", filename: "ok.xlsx", data: zipOf([xlsxTypes, workbook, zerosDeflated("xl/worksheets/sheet1.xml", 50)]) },
    ]);
    expect(big.status, big.text).toBe(201);
    const ok = await upload([
      { name: "type", value: "boothDocument" },
      { name: "file", filename: "ok.docx", data: officeFile("docx") },
    ]);
    expect(ok.status, ok.text).toBe(201);
  }, 60_000);

  it("stores 20 concurrent uploads with hostile names under distinct generated keys, byte for byte", async () => {
    const tag = Date.now().toString(36);
    const files = Array.from({ length: 20 }, (_, i) => {
      const data = i % 2 ? Buffer.concat([minimalPdf(), Buffer.from(`% ${tag} ${i}\n`)]) : tinyPng([i, 255 - i, 7, 255]);
      const filename = i % 2 ? `../../../../tmp/pwned-${tag}-${i}\u0000.pdf` : `..\\..\\pwned-${tag}-${i}.png`;
      return { i, data, filename, type: i % 2 ? "boothDocument" : "product_image" };
    });
    const before = new Set(storedFiles());
    const results = await Promise.all(
      files.map((f) =>
        upload(
          [
            { name: "type", value: f.type },
            { name: "file", filename: f.filename, data: f.data, encodeName: true },
          ],
          { stream: f.i % 3 === 0 },
        ),
      ),
    );
    for (const [n, res] of results.entries()) {
      expect(res.status, res.text).toBe(201);
      expect(res.body.name).toBe(n % 2 ? `pwned-${tag}-${n}.pdf` : `pwned-${tag}-${n}.png`);
      expect(res.body.size).toBe(files[n]!.data.length);
    }
    const urls = results.map((r) => r.body.url as string);
    expect(new Set(urls).size).toBe(20);
    const served = await Promise.all(urls.map(async (u) => Buffer.from(await (await fetch(`${server.url}${u}`)).arrayBuffer())));
    served.forEach((b, n) => expect(b.equals(files[n]!.data), `file ${n}`).toBe(true));
    const added = storedFiles().filter((f) => !before.has(f));
    expect(added.sort()).toEqual(urls.map((u) => u.replace(/^\/uploads\//, "")).sort());
    expect(added.every((f) => KEY_PATH.test(f))).toBe(true);
    expect(files.some((f) => existsSync(`/tmp/pwned-${tag}-${f.i}.pdf`) || existsSync(`/tmp/pwned-${tag}-${f.i}.png`))).toBe(false);
  });

  it("refuses a declared 101 MB document with 413 before reading it, writing nothing", async () => {
    const before = storedFiles();
    const boundary = "x101";
    const head = multipartHead(boundary, "too-big.pdf");
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const fileSize = 101 * MiB;
    let sent = 0;
    let sawFiles = false;
    const watcher = setInterval(() => {
      if (storedFiles().length !== before.length) sawFiles = true;
    }, 10);
    const attempt = () =>
      handUpload(
        { "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": String(head.length + fileSize + tail.length) },
        async (send) => {
          sent = 0;
          if (!(await send(head))) return;
          const chunk = Buffer.alloc(MiB, 0x20);
          chunk.write("%PDF-1.4\n");
          for (let left = fileSize; left > 0; left -= MiB) {
            if (!(await send(chunk))) return;
            sent += MiB;
          }
        },
      );
    // A connection reset can still swallow the answer (TCP discards what the client had not read
    // when the server's reset arrives); the server's side is the same each time, so try again.
    const retryReset = (err: NodeJS.ErrnoException) => (err.code === "EPIPE" || err.code === "ECONNRESET" ? attempt() : Promise.reject(err));
    const answer = await attempt()
      .catch(retryReset)
      .catch(retryReset)
      .finally(() => clearInterval(watcher));
    console.log(`101 MB upload: ${answer.status} after the client sent ${(sent / MiB).toFixed(0)} MiB`);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).code).toBe("payload_too_large");
    // The server answered long before the body could have arrived; past 16 MiB it hangs up.
    expect(sent).toBeLessThan(40 * MiB);
    expect(sawFiles, "nothing appeared in storage, not even a temporary file").toBe(false);
    expect(storedFiles()).toEqual(before);
  }, 60_000);

  it("abandons an upload that stalls (408) and cuts one that trickles, leaving nothing behind", async () => {
    const before = storedFiles();
    const fdsBefore = openFds();
    const boundary = "slow";
    // Stalls after 1 KiB of the file: the idle timeout answers 408 and the partial file goes.
    const t0 = Date.now();
    const stalled = await handUpload({ "content-type": `multipart/form-data; boundary=${boundary}` }, async (send) => {
      await send(multipartHead(boundary, "stalled.pdf"));
      await send(Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(1024, 0x20)]));
    });
    expect(stalled.status).toBe(408);
    expect(JSON.parse(stalled.body)).toMatchObject({ code: "request_timeout", status: 408 });
    expect(stalled.at - t0).toBeGreaterThanOrEqual(IDLE_TIMEOUT_MS - 50);
    // Well before the server's request timeout, whose own 408 would carry no body.
    expect(stalled.at - t0).toBeLessThan(REQUEST_TIMEOUT_MS);
    // The server hangs up rather than wait for the rest.
    await within(stalled.closedAt, 3000, "stalled connection closed");

    // Trickles a byte every 100 ms, never idle for long: the request timeout cuts it.
    const t1 = Date.now();
    let trickling = true;
    const trickled = await handUpload({ "content-type": `multipart/form-data; boundary=${boundary}` }, async (send) => {
      await send(multipartHead(boundary, "trickle.pdf"));
      await send(Buffer.from("%PDF-1.4\n"));
      while (trickling && (await send(Buffer.from(" ")))) await new Promise((r) => setTimeout(r, 100));
    }).catch((err: Error) => ({ status: 0, body: String(err), at: Date.now(), closedAt: Promise.resolve(Date.now()) }));
    trickling = false;
    const cutAfter = (await trickled.closedAt) - t1;
    console.log(`slow uploads: stalled answered ${stalled.status} after ${stalled.at - t0} ms; trickle answered ${trickled.status}, cut after ${cutAfter} ms`);
    expect(trickled.status).toBe(408);
    expect(cutAfter).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
    expect(cutAfter).toBeLessThan(REQUEST_TIMEOUT_MS + 4000);

    // Nothing stored, no temporary file, no file handle left open.
    for (let i = 0; i < 50 && (storedFiles().length !== before.length || openFds() > fdsBefore); i++) await new Promise((r) => setTimeout(r, 100));
    expect(storedFiles()).toEqual(before);
    expect(openFds()).toBeLessThanOrEqual(fdsBefore);
    const ok = await upload([
      { name: "type", value: "boothDocument" },
      { name: "file", filename: "after.pdf", data: minimalPdf() },
    ]);
    expect(ok.status, ok.text).toBe(201);
  }, 30_000);

  it("leaves exactly one row and one file per accepted upload: none for anything refused", async () => {
    await server.stop();
    let rows: number;
    if (process.env.DATABASE_URL) {
      const sql = postgres(process.env.DATABASE_URL, { max: 1, onnotice: () => {} });
      [{ n: rows }] = (await sql`select count(*)::int as n from uploads where user_id = ${userId}`) as unknown as [{ n: number }];
      await sql.end();
    } else {
      const db = await PGlite.create(path.join(server.dataDir, "pglite"), { extensions: { pg_trgm } });
      rows = (await db.query<{ n: number }>("select count(*)::int as n from uploads where user_id = $1", [userId])).rows[0]!.n;
      await db.close();
    }
    expect(rows).toBe(stored.length);
    expect(storedFiles().sort()).toEqual(stored.map((u) => u.replace(/^\/uploads\//, "")).sort());
  });
});
