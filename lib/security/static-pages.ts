// The CSP of answers Next writes (server.ts only), settled when their headers go out. A page Next prerendered at build time is served as
// the stored HTML (`x-nextjs-prerender: 1`), without the proxy's per-request nonce on its inline
// scripts, so the nonce policy would block them. Those inline scripts are fixed at build time: this
// reads the stored HTML once per route and allows exactly them by hash. Pages whose HTML cannot be
// found fall back to the policy Next documents for static pages ('unsafe-inline' scripts).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { hashedPageCsp, staticPageCsp } from "./headers";

const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script>/g;

export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const m of html.matchAll(INLINE_SCRIPT)) {
    if (/\btype=["']?application\/(ld\+)?json/i.test(m[1]!)) continue; // data blocks never run
    hashes.add(createHash("sha256").update(m[2]!, "utf8").digest("base64"));
  }
  return [...hashes];
}

export function pageCspAtWriteHead(distDir: string, o: { dev?: boolean; https?: boolean }) {
  const cache = new Map<string, string>();
  const policyFor = (route: string): string => {
    let csp = cache.get(route);
    if (csp) return csp;
    try {
      const safe = path.posix.normalize(route).replace(/^(\.\.\/|\/)+/, "");
      csp = hashedPageCsp(inlineScriptHashes(readFileSync(path.join(distDir, "server", "app", `${safe || "index"}.html`), "utf8")), o);
    } catch {
      csp = staticPageCsp(o);
    }
    if (cache.size < 5000) cache.set(route, csp);
    return csp;
  };
  /**
   * At the moment headers go out: a prerendered answer's nonce policy becomes its hash policy; an
   * answer nobody gave a policy (Next's own pages and files the proxy does not see) gets `fallback`.
   * A handler's own policy (/uploads' sandbox) is left alone.
   */
  return (req: IncomingMessage, res: ServerResponse, fallback: string) => {
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
      const current = res.getHeader("content-security-policy");
      // Also on a 304 (no content type): the browser takes the 304's CSP for the cached page.
      if (res.getHeader("x-nextjs-prerender") && String(current ?? "").includes("'nonce-")) {
        const rewritten = res.getHeader("x-middleware-rewrite");
        const route = new URL(typeof rewritten === "string" ? rewritten : (req.url ?? "/"), "http://x").pathname;
        res.setHeader("Content-Security-Policy", policyFor(route));
      } else if (current === undefined && !headersArgHasCsp(args)) {
        res.setHeader("Content-Security-Policy", fallback);
      }
      return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
    } as typeof res.writeHead;
  };
}

/** writeHead(status, [message], headers): a policy passed there wins too. */
function headersArgHasCsp(args: unknown[]): boolean {
  const h = args.find((a) => a !== null && typeof a === "object");
  if (!h) return false;
  if (Array.isArray(h)) return h.some((x, i) => i % 2 === 0 && String(x).toLowerCase() === "content-security-policy");
  return Object.keys(h).some((k) => k.toLowerCase() === "content-security-policy");
}
