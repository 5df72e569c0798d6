// The custom server: Next.js and the /ws/chat WebSocket on one port. Opens, migrates and seeds the
// database before it listens; shuts down gracefully on SIGTERM/SIGINT.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Duplex } from "node:stream";
import next from "next";
import { PAGE_FETCH_HEADER } from "@/lib/api/aliases";
import { REMOTE_ADDR_HEADER } from "@/lib/auth/cookies";
import { closeDatabase, dbHandle } from "@/lib/db/client";
import { DatabaseLockedError } from "@/lib/db/lock";
import { stopPageFence } from "@/lib/db/page-fence";
import { prepareDatabase } from "@/lib/db/migrate";
import { DatabaseOpenError } from "@/lib/db/pglite-store";
import { env, exportForNextAuth } from "@/lib/env";
import { browsePageLocale, gateBrowsePage } from "@/lib/gate/pages";
import { createPageCache } from "@/lib/pages/page-cache";
import { ChatSocketServer } from "@/lib/realtime/socket";
import { API_CSP, apiHead, baseSecurityHeaders, staticPageCsp } from "@/lib/security/headers";
import { startRenormalization } from "@/lib/search/renormalize";
import { pageCspAtWriteHead } from "@/lib/security/static-pages";
import { methodNotAllowed } from "@/lib/server/allow";
import { drained, loadApiRouter, serveDirect } from "@/lib/server/api-router";
import { badHost, hostRefusal } from "@/lib/server/host";
import { sitemapRoute } from "@/lib/services/seo/http";
import { serveSessionProbe } from "@/lib/services/session/probe";
import { stopCatalogFeed } from "@/lib/services/catalog/catalog-feed";
import { flushViews } from "@/lib/services/catalog/views";
import { flushRateRefusals } from "@/lib/gate/rate-refusals";
import { flushRateCounts } from "@/lib/api/rate-limit";
import { listenForTestSql } from "@/lib/server/test-sql";
import { outboxSender } from "@/lib/services/notify/outbox";

async function main() {
  const dev = process.argv.includes("--dev");
  const e = env();
  exportForNextAuth(e);
  if (e.BCRYPT_COST < 10) console.warn(`BCRYPT_COST=${e.BCRYPT_COST}: passwords hashed at a test run's low cost, not for real accounts`);

  const started = Date.now();
  const admin =
    e.ADMIN_USERNAME && e.ADMIN_PASSWORD
      ? { username: e.ADMIN_USERNAME, email: e.ADMIN_EMAIL ?? `${e.ADMIN_USERNAME}@localhost`, password: e.ADMIN_PASSWORD }
      : undefined;
  const db = await prepareDatabase({ demo: e.SEED_DEMO, admin });
  const handle = await dbHandle();
  console.log(`database ready (${handle.kind === "pglite" ? `PGlite in ${handle.dir}` : "PostgreSQL"}) in ${Date.now() - started} ms`);
  // Search columns stored by an older normalization are recomputed while the server runs.
  const renormalization = startRenormalization(db);

  const app = next({ dev, hostname: "localhost", port: e.PORT });
  const handleRequest = app.getRequestHandler();
  await app.prepare();

  listenForTestSql(handle);
  const chat = new ChatSocketServer();
  // Chat deliveries and session revocations arrive through the database (LISTEN/NOTIFY).
  await chat.start(handle);
  // Notification e-mails written to the outbox go out from here when SMTP_URL is set.
  outboxSender.start();
  // /api/* goes straight to the route handlers (same functions, same wrapper) unless turned off
  // or in development, where Next's hot reload must see every request.
  const api = !dev && e.API_DIRECT ? loadApiRouter() : null;
  // Every request must arrive whole within this time (Node's default, 5 minutes; configurable for
  // tests): a client trickling a body byte by byte is answered 408 and cut off. Checked at a tenth
  // of it, so it fires on time.
  const requestTimeout = e.HTTP_REQUEST_TIMEOUT_MS;
  const timeouts = {
    requestTimeout,
    headersTimeout: Math.min(60_000, requestTimeout),
    connectionsCheckingInterval: Math.min(30_000, Math.max(100, requestTimeout / 10)),
  };
  const https = e.PUBLIC_URL.startsWith("https://");
  const securityHeaders = baseSecurityHeaders(https);
  const directHead = apiHead(https);
  const fallbackCsp = staticPageCsp({ dev, https });
  const cspAtWriteHead = pageCspAtWriteHead(path.join(process.cwd(), ".next"), { dev, https });
  // Anonymous product, booth, store and exhibition pages from an exact HTML cache (not in development).
  const buildId = () => readFileSync(path.join(process.cwd(), ".next", "BUILD_ID"), "utf8").trim();
  const pages = !dev && e.PAGE_CACHE_MB > 0 ? createPageCache({ maxBytes: e.PAGE_CACHE_MB * 1024 * 1024, buildId: buildId(), https, db: dbHandle }) : null;
  const refuseHost = (res: ServerResponse, detail: string, apiPath: boolean) => {
    const { body, type } = hostRefusal(detail, apiPath);
    res.shouldKeepAlive = false;
    res.writeHead(400, [...directHead.flat, "Content-Type", type, "Content-Length", String(Buffer.byteLength(body))]).end(body);
  };
  const server = createServer(timeouts, (req, res) => {
    // The client address as the socket saw it; a value sent by the client is never trusted.
    req.headers[REMOTE_ADDR_HEADER] = req.socket.remoteAddress ?? "unknown";
    // Next's internal recursion marker (CVE-2025-29927 skipped middleware with it): never from a client.
    delete req.headers["x-middleware-subrequest"];
    const url = req.url ?? "/";
    const apiPath = url.startsWith("/api/") || url === "/api" || url.startsWith("/mcp");
    const hostProblem = badHost(req);
    if (hostProblem) return refuseHost(res, hostProblem, apiPath);
    if (apiPath) {
      const q = url.indexOf("?");
      const pathname = q < 0 ? url : url.slice(0, q);
      const hit = api && url.startsWith("/api/") ? api.match(req.method ?? "GET", pathname) : null;
      // Security headers and the API's CSP go out with the handler's in one writeHead.
      if (hit) return void serveDirect(hit.handler, hit.params, req, res, directHead);
      // Only a request no handler took can be a wrong method: the common path pays no second lookup.
      const refusal = methodNotAllowed(req.method ?? "GET", pathname);
      if (refusal) {
        // An unread body would otherwise be parsed as the next request on this connection: closed
        // after it is read and dropped, as the direct dispatch's early answers (drained).
        const close = req.complete ? [] : ["Connection", "close"];
        const head = [...directHead.flat, ...refusal.headers.flat(), ...close, "Content-Length", String(Buffer.byteLength(refusal.body))];
        return void drained(req).then(() => res.writeHead(405, head).end(refusal.body));
      }
    }
    // Security headers for every answer; the CSP is settled when headers go out (a page's nonce
    // policy from the proxy, a prerendered page's hashes, a handler's own, or the default).
    for (const [k, v] of securityHeaders) res.setHeader(k, v);
    // Sitemaps (crawlers, and anyone flooding them) skip Next's pipeline the same way, when /api does.
    const sitemap = api && (req.method === "GET" || req.method === "HEAD") ? sitemapRoute(url.split("?")[0]!) : null;
    if (sitemap) return void serveDirect((request) => sitemap(request), {}, req, res, directHead);
    // The header's session probe: outside the API tier, so browsing never spends it (contract 9.5).
    if (api && url.split("?")[0] === "/session.json") return void serveDirect(serveSessionProbe, {}, req, res, directHead);
    // Next's own page fetches, marked for the proxy, which cannot see what makes them so.
    if (req.headers.rsc !== undefined || /[?&]_rsc=/.test(url)) req.headers[PAGE_FETCH_HEADER] = "1";
    else delete req.headers[PAGE_FETCH_HEADER];
    const render = () => {
      cspAtWriteHead(req, res, apiPath ? API_CSP : fallbackCsp);
      void handleRequest(req, res);
    };
    // An AI account's session on a catalog page passes the gate first (product.browse, audited).
    const gateLocale = browsePageLocale(req.method, url, req.headers.cookie);
    if (!gateLocale) {
      if (!pages?.serve(req, res, render)) render();
      return;
    }
    gateBrowsePage(req, res, gateLocale).then(
      (pass) => {
        if (pass && !pages?.serve(req, res, render)) render();
      },
      (err: unknown) => {
        // Not known to be allowed: refused, as the API refuses when the database is away.
        console.error("page gate failed", err);
        if (!res.headersSent) res.writeHead(503, { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "5" });
        res.end("Service unavailable; retry shortly");
      },
    );
  });
  // Next attaches its own "upgrade" listener on the first request and would also act on our
  // socket; intercepting the event keeps /ws/chat ours and every other path closed, and leaves
  // Next's HMR socket (dev only) to Next.
  // Node treats an Upgrade request as a plain request while no "upgrade" listener exists (Next adds
  // its own only after its first request, which /api traffic may never make): keep one registered.
  server.on("upgrade", () => {});
  const emit = server.emit.bind(server) as (event: string, ...args: unknown[]) => boolean;
  server.emit = ((event: string, ...args: unknown[]) => {
    if (event !== "upgrade") return emit(event, ...args);
    const [req, socket, head] = args as [IncomingMessage, Duplex, Buffer];
    const pathname = (req.url ?? "").split("?")[0];
    const hostProblem = badHost(req);
    if (hostProblem && pathname === "/ws/chat") {
      const { body, type } = hostRefusal(hostProblem, false);
      socket.end(`HTTP/1.1 400 Bad Request\r\nContent-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
      return true;
    }
    if (pathname === "/ws/chat") {
      req.headers[REMOTE_ADDR_HEADER] = req.socket.remoteAddress ?? "unknown";
      chat.handleUpgrade(req, socket, head);
      return true;
    }
    if (dev && pathname?.startsWith("/_next/")) return emit(event, ...args);
    socket.destroy();
    return true;
  }) as typeof server.emit;
  server.keepAliveTimeout = 65_000;

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    const force = setTimeout(() => {
      console.error("shutdown timed out; exiting");
      process.exit(1);
    }, 15_000);
    force.unref();
    chat.close();
    // Stop accepting; in-flight requests finish (their writes commit) before the database closes.
    server.close(() => {
      // Views and refusal counts still in their buffers are written before the database closes.
      void Promise.all([
        renormalization.stop(),
        outboxSender.stop(),
        flushViews().catch((err: unknown) => console.error("writing product views failed", err)),
        flushRateRefusals(),
        flushRateCounts().catch((err: unknown) => console.error("writing rate counts failed", err)),
      ])
        .then(async () => {
          stopCatalogFeed();
          await stopPageFence();
          return closeDatabase();
        })
        .catch((err: unknown) => console.error("closing the database failed", err))
        .finally(() => process.exit(0));
    });
    // Connections turn idle as their last response ends; close them as they do.
    setInterval(() => server.closeIdleConnections(), 100).unref();
    server.closeIdleConnections();
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));

  server.listen(e.PORT, e.HOST, () => {
    const addr = server.address();
    const port = typeof addr === "object" && addr ? addr.port : e.PORT;
    console.log(`Expo Trade ready on http://localhost:${port} (${dev ? "development" : "production"})`);
  });
}

main().catch(async (err: unknown) => {
  // Refusals about the data directory: the message says what happened and what to do.
  if (err instanceof DatabaseLockedError || err instanceof DatabaseOpenError) console.error(`\n${err.message}\n`);
  else console.error(err);
  await closeDatabase().catch(() => {});
  process.exit(1);
});
