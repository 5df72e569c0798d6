import { readdirSync, readFileSync, statSync } from "node:fs";
import { request } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pdfOfSize, postMultipart, tinyPng } from "../support/multipart";
import { zip } from "../support/zip";
import { startServer, type RunningServer } from "../support/server";

// Limits and memory of POST /api/upload, on a server of this file's own: its upload directory and
// its process are visible here (the shared server's are not).
const MiB = 1024 * 1024;
let server: RunningServer;
let token: string;

beforeAll(async () => {
  server = await startServer({ DATABASE_URL: process.env.DATABASE_URL ?? "" });
  const username = `up_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const post = (p: string, body: unknown) =>
    fetch(`${server.url}${p}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const created = await post("/api/accounts/create", { email: `${username}@example.test`, username, password: "long-enough-1", role: "SELLER" });
  expect(created.status).toBe(201);
  token = ((await (await post("/api/auth/login", { email: username, password: "long-enough-1" })).json()) as { token: string }).token;
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

const upload = (parts: Parameters<typeof postMultipart>[2], stream = false) => postMultipart(`${server.url}/api/upload`, token, parts, { stream });

/** Every file under the upload directory, temporary ones included. */
function storedFiles(dir = path.join(server.dataDir, "uploads")): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((n) => {
    const full = path.join(dir, n);
    return statSync(full).isDirectory() ? storedFiles(full) : [full];
  });
}

const rssBytes = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024;

/** A PNG that file-type recognizes, padded to `total` bytes. */
function paddedPng(total: number): () => AsyncIterable<Uint8Array> {
  return async function* () {
    const png = tinyPng();
    yield png;
    const chunk = Buffer.alloc(MiB);
    for (let left = total - png.length; left > 0; left -= MiB) yield left >= MiB ? chunk : chunk.subarray(0, left);
  };
}

describe("upload limits and storage", () => {
  it("refuses an 11 MB image with 413 and leaves nothing in storage, whichever part comes first", async () => {
    const before = storedFiles();
    for (const typeFirst of [true, false]) {
      const type = { name: "type", value: "product_image" };
      const file = { name: "file", filename: "huge.png", data: paddedPng(11 * MiB) };
      const res = await upload(typeFirst ? [type, file] : [file, type], !typeFirst);
      expect(res.status, res.text).toBe(413);
      expect(res.body.code).toBe("payload_too_large");
      expect(storedFiles()).toEqual(before);
    }
    // The server is still fine afterwards.
    const ok = await upload([
      { name: "type", value: "product_image" },
      { name: "file", filename: "ok.png", data: tinyPng() },
    ]);
    expect(ok.status, ok.text).toBe(201);
    expect(storedFiles()).toHaveLength(before.length + 1);
  }, 60_000);

  it("removes a file refused only after it was stored (a ZIP that turns out not to be an Office file)", async () => {
    const before = storedFiles();
    const fake = zip([
      ["a.txt", "x"],
      ["pad.bin", Buffer.alloc(200_000)],
    ]);
    const res = await upload([
      { name: "type", value: "boothDocument" },
      { name: "file", filename: "fake.xlsx", data: fake },
    ]);
    expect(res.status, res.text).toBe(415);
    expect(storedFiles()).toEqual(before);
  });

  it("streams a 100 MB document to disk while the server's memory grows by less than 50 MB", async () => {
    const pid = server.child.pid!;
    // Warm up the route (module loading and first-request work are not what is measured).
    const warm = await upload(
      [
        { name: "type", value: "boothDocument" },
        { name: "file", filename: "warm.pdf", data: pdfOfSize(64 * 1024) },
      ],
      true,
    );
    expect(warm.status, warm.text).toBe(201);
    const before = rssBytes(pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(pid))), 50);
    try {
      const res = await upload(
        [
          { name: "type", value: "boothDocument" },
          { name: "file", filename: "catalogue.pdf", data: pdfOfSize(100 * MiB) },
        ],
        true,
      );
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ size: 100 * MiB, mimeType: "application/pdf", name: "catalogue.pdf" });
      const key = (res.body.url as string).replace(/^\/uploads\//, "");
      expect(statSync(path.join(server.dataDir, "uploads", key)).size).toBe(100 * MiB);
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, rssBytes(pid));
    expect(peak - before, `RSS ${before} -> peak ${peak}`).toBeLessThan(50 * 1000 * 1000);
  }, 120_000);

  it("refuses a 101 MB document with 413 and leaves nothing in storage", async () => {
    const before = storedFiles();
    const res = await upload(
      [
        { name: "type", value: "boothDocument" },
        { name: "file", filename: "too-big.pdf", data: pdfOfSize(101 * MiB) },
      ],
      true,
    );
    expect(res.status, res.text).toBe(413);
    expect(res.body.code).toBe("payload_too_large");
    expect(storedFiles()).toEqual(before);
  }, 120_000);

  it("refuses a body declared larger than any upload at once, before it arrives", async () => {
    // node:http, because fetch will not send a Content-Length that the body does not match.
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${server.url}/api/upload`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "multipart/form-data; boundary=x", "content-length": String(200 * MiB) },
      });
      req.on("response", (res) => {
        let body = "";
        res.on("data", (d: Buffer) => (body += d.toString()));
        res.on("end", () => {
          resolve({ status: res.statusCode!, body });
          req.destroy();
        });
      });
      req.on("error", reject);
      req.write("--x\r\n");
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).code).toBe("payload_too_large");
  });
});
