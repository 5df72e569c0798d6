// The direct dispatch's light Request (lib/server/node-request.ts) and its one-writeHead answers
// (lib/server/api-router.ts serveDirect), over a real node:http server and real sockets.
import { request as httpRequest, createServer, type ClientRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { textResponse } from "@/lib/api/text-response";
import { apiHead } from "@/lib/security/headers";
import { serveDirect } from "@/lib/server/api-router";

type Handler = (req: Request) => Promise<Response>;
let handler: Handler = async () => new Response(null, { status: 204 });
let server: Server;
let base = "";

beforeAll(async () => {
  const head = apiHead(false);
  server = createServer((req, res) => void serveDirect((r) => handler(r), {}, req, res, head));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A raw request (fetch would merge repeated headers itself), answered as status, headers, body. */
function raw(method: string, path: string, headers: [string, string][], body?: string | Buffer) {
  return new Promise<{ status: number; rawHeaders: string[]; body: string }>((resolve, reject) => {
    // A flat list keeps repeated names apart; node then adds neither Host nor Content-Length itself.
    const all = [["Host", "127.0.0.1"], ...headers, ...(body !== undefined ? [["Content-Length", String(Buffer.byteLength(body))]] : [])].flat();
    const req = httpRequest(`${base}${path}`, { method, headers: all as unknown as Record<string, string> }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode!, rawHeaders: res.rawHeaders, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * A chunked POST whose body `tick` writes (and ends with `stop`) as it likes: the answer, how long it took,
 * and whether the client had ended its body when the answer was complete.
 */
function chunkedPost(tick: (req: ClientRequest, stop: () => void) => void) {
  return new Promise<{ status: number; body: string; ms: number; clientEnded: boolean }>((resolve, reject) => {
    const t0 = Date.now();
    let ended = false;
    const req = httpRequest(
      `${base}/api/upload`,
      { method: "POST", headers: { "content-type": "application/octet-stream", "transfer-encoding": "chunked" } },
      (res) => {
        let text = "";
        res.on("data", (c: Buffer) => (text += c.toString()));
        res.on("end", () => resolve({ status: res.statusCode!, body: text, ms: Date.now() - t0, clientEnded: ended }));
      },
    );
    req.on("error", reject);
    tick(req, () => {
      ended = true;
      req.end();
    });
  });
}

describe("the light request", () => {
  it("reads headers case-insensitively, joins repeated ones as node does, and is a Headers", async () => {
    let seen: Record<string, unknown> = {};
    handler = async (req) => {
      seen = {
        isHeaders: req.headers instanceof Headers,
        upper: req.headers.get("X-Custom"),
        lower: req.headers.get("x-custom"),
        cookie: req.headers.get("Cookie"),
        has: req.headers.has("X-CUSTOM"),
        missing: req.headers.get("x-absent"),
        entries: [...req.headers].filter(([k]) => k.startsWith("x-")),
        url: req.url,
        method: req.method,
        body: req.body,
      };
      return new Response(null, { status: 204 });
    };
    const res = await raw("GET", "/api/x?q=1", [
      ["X-Custom", "a"],
      ["x-custom", "b"],
      ["Cookie", "a=1"],
      ["Cookie", "b=2"],
    ]);
    expect(res.status).toBe(204);
    expect(seen).toMatchObject({ isHeaders: true, upper: "a, b", lower: "a, b", cookie: "a=1; b=2", has: true, missing: null, method: "GET", body: null });
    expect(seen.entries).toEqual([["x-custom", "a, b"]]);
    expect(seen.url).toBe("http://127.0.0.1/api/x?q=1");
  });

  it("hands the body over once: a second read fails", async () => {
    let second = "";
    handler = async (req) => {
      const first = (await req.json()) as { a: number };
      second = await req.text().then(
        () => "read twice",
        (e: Error) => e.name,
      );
      return textResponse(JSON.stringify({ a: first.a, used: req.bodyUsed }), { status: 200 }, "application/json");
    };
    const res = await raw("POST", "/api/x", [["content-type", "application/json"]], '{"a":7}');
    expect(JSON.parse(res.body)).toEqual({ a: 7, used: true });
    expect(second).toBe("TypeError");
  });

  it("rejects bad JSON from json() as a SyntaxError (the wrapper answers 400 for it)", async () => {
    let err = "";
    handler = async (req) => {
      err = await req.json().then(
        () => "parsed",
        (e: Error) => e.name,
      );
      return new Response(null, { status: 204 });
    };
    await raw("POST", "/api/x", [["content-type", "application/json"]], "{not json");
    expect(err).toBe("SyntaxError");
  });

  it("streams the body: the handler reads the first part before the client has sent the rest", async () => {
    handler = async (req) => {
      const source = Readable.fromWeb(req.body as unknown as NodeReadableStream<Uint8Array>);
      let got = 0;
      for await (const chunk of source) {
        got += (chunk as Buffer).length;
        if (got >= 1024) break;
      }
      return textResponse(String(got), { status: 200 });
    };
    // Only the first 64 KiB go out; the rest is never sent unless the answer comes first.
    const answer = await chunkedPost((req, stop) => {
      req.write(Buffer.alloc(64 * 1024, 1));
      setTimeout(stop, 10_000).unref();
    });
    expect(answer.clientEnded).toBe(false);
    expect(answer.status).toBe(200);
    expect(Number(answer.body)).toBeGreaterThanOrEqual(1024);
  });
});

describe("the answer", () => {
  it("goes out in one head: security headers once, the handler's own, every Set-Cookie, the byte length", async () => {
    handler = async () => {
      const res = textResponse(JSON.stringify({ word: "灯" }), { status: 201, headers: { "Cache-Control": "no-store" } }, "application/json; charset=utf-8");
      res.headers.append("Set-Cookie", "a=1; Path=/");
      res.headers.append("Set-Cookie", "b=2; Path=/");
      return res;
    };
    const res = await raw("GET", "/api/x", []);
    expect(res.status).toBe(201);
    expect(JSON.parse(res.body)).toEqual({ word: "灯" });
    const values = (name: string) => res.rawHeaders.filter((_, i) => i % 2 === 1 && res.rawHeaders[i - 1]!.toLowerCase() === name);
    for (const [name, value] of apiHead(false).flat.reduce<[string, string][]>((acc, x, i, all) => (i % 2 ? acc : [...acc, [x, all[i + 1]!]]), [])) {
      expect(values(name.toLowerCase())).toEqual([value]);
    }
    expect(values("set-cookie")).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    expect(values("content-length")).toEqual([String(Buffer.byteLength(res.body))]);
    expect(values("cache-control")).toEqual(["no-store"]);
    expect(values("content-type")).toEqual(["application/json; charset=utf-8"]);
  });

  it("lets a handler's own security header replace the default one", async () => {
    handler = async () => new Response("<svg/>", { status: 200, headers: { "Content-Security-Policy": "sandbox", "Content-Type": "image/svg+xml" } });
    const res = await raw("GET", "/api/x", []);
    const csp = res.rawHeaders.filter((_, i) => i % 2 === 1 && res.rawHeaders[i - 1]!.toLowerCase() === "content-security-policy");
    expect(csp).toEqual(["sandbox"]);
    // A streamed (not text) body still arrives whole.
    expect(res.body).toBe("<svg/>");
  });

  it("answers 500 as problem+json, with the security headers, when the handler throws", async () => {
    handler = async () => {
      throw new Error("boom");
    };
    const res = await raw("GET", "/api/x", []);
    expect(res.status).toBe(500);
    expect(JSON.parse(res.body)).toMatchObject({ status: 500, code: "internal_error" });
    expect(res.rawHeaders.map((h) => h.toLowerCase())).toContain("x-content-type-options");
  });

  it("closes the connection when the handler answered without reading the body", async () => {
    handler = async () => textResponse("{}", { status: 413 }, "application/json");
    const res = await raw("POST", "/api/x", [["content-type", "application/json"]], Buffer.alloc(256 * 1024, 0x20));
    expect(res.status).toBe(413);
    const connection = res.rawHeaders.filter((_, i) => i % 2 === 1 && res.rawHeaders[i - 1]!.toLowerCase() === "connection");
    expect(connection).toEqual(["close"]);
  });

  // The rest of an unread body is read and dropped while it keeps coming (so a client still sending
  // reads the answer), but a client that went quiet is answered at once: waiting out the whole linger
  // could lose the race with the server's request timeout, whose own 408 has no body.
  it("answers a client that went quiet at once, and lingers for one still sending", async () => {
    handler = async () => textResponse('{"code":"request_timeout"}', { status: 408 }, "application/json");
    // 1 KiB, then nothing (the client ends only after 10 s, long past any linger).
    const quiet = await chunkedPost((req, stop) => {
      req.write(Buffer.alloc(1024, 1));
      setTimeout(stop, 10_000).unref();
    });
    expect(quiet.status).toBe(408);
    expect(JSON.parse(quiet.body)).toEqual({ code: "request_timeout" });
    expect(quiet.clientEnded).toBe(false);
    expect(quiet.ms).toBeLessThan(2000);
    // 1 KiB every 100 ms for 1.5 s, then the end: the answer waits for it.
    const busy = await chunkedPost((req, stop) => {
      let n = 0;
      const timer = setInterval(() => {
        if (++n > 15) {
          clearInterval(timer);
          stop();
        } else req.write(Buffer.alloc(1024, 1));
      }, 100);
    });
    expect(busy.status).toBe(408);
    expect(busy.clientEnded).toBe(true);
    expect(busy.ms).toBeGreaterThanOrEqual(1500);
  });
});
