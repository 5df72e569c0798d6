// Security headers (issue #7, point 5), one place for all three paths an answer can take:
// pages through proxy.ts (CSP with a per-request nonce), /api/* answered straight by server.ts
// (lib/server/api-router.ts), and whatever Next answers without the proxy (NextAuth, static files,
// prerendered pages). server.ts sets the base set on every response Next answers before Next writes
// its own, and the API router writes them in its one writeHead (apiHead); a header set later (the
// proxy's CSP, /uploads' sandbox CSP, a handler's own) replaces it.

/** Everything gets these. HSTS only when the public origin is https (a browser ignores it over http). */
export function baseSecurityHeaders(https: boolean): [string, string][] {
  const h: [string, string][] = [
    ["X-Content-Type-Options", "nosniff"],
    ["Referrer-Policy", "strict-origin-when-cross-origin"],
    ["X-Frame-Options", "DENY"],
    ["Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()"],
    ["Cross-Origin-Opener-Policy", "same-origin"],
  ];
  if (https) h.push(["Strict-Transport-Security", "max-age=63072000; includeSubDomains"]);
  return h;
}

/** JSON and files from /api and /mcp are never documents to render or frame. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * The security headers of an answer the direct API dispatch writes, computed once: a flat
 * [name, value, ...] list for one `writeHead`, and the lower-case names a handler's own header
 * replaces.
 */
export type ApiHead = { flat: readonly string[]; names: ReadonlySet<string> };

export function apiHead(https: boolean): ApiHead {
  const pairs = [...baseSecurityHeaders(https), ["Content-Security-Policy", API_CSP] as [string, string]];
  return { flat: pairs.flat(), names: new Set(pairs.map(([k]) => k.toLowerCase())) };
}

type PageCspOptions = { dev?: boolean; https?: boolean };

function policy(scriptSrc: string, o: PageCspOptions): string {
  return [
    "default-src 'self'",
    `script-src ${scriptSrc}${o.dev ? " 'unsafe-eval'" : ""}`,
    // React and the pages write style attributes into server-rendered HTML; CSP has no nonce for
    // attributes, so styles need 'unsafe-inline' (styles cannot run script).
    "style-src 'self' 'unsafe-inline'",
    // Product images may be any https URL a seller gave; uploads are same-origin.
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    // 'self' covers the same-origin /ws/chat socket (ws:/wss: of this host) in CSP Level 3 browsers.
    "connect-src 'self'",
    "media-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(o.https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/** The policy for a dynamically rendered page: only scripts carrying this request's nonce run. */
export function pageCsp(nonce: string, o: PageCspOptions = {}): string {
  return policy(`'self' 'nonce-${nonce}' 'strict-dynamic'`, o);
}

/**
 * The policy for HTML rendered without a request (prerendered/static pages, and pages the proxy does
 * not match): Next inlines its bootstrap scripts there without a nonce, so script-src must allow
 * inline scripts. Everything else is as strict as for dynamic pages.
 */
export function staticPageCsp(o: PageCspOptions = {}): string {
  return policy("'self' 'unsafe-inline'", o);
}

// Random bytes drawn 4 kB at a time: one call into the generator per 256 nonces (a call per nonce costs
// 6 us, 0.25 us from the pool: 5% of a cached page's answer in its profile). Each nonce takes bytes no
// other nonce took; the pool is never handed out or reused.
const NONCE_BYTES = 16;
const pool = new Uint8Array(NONCE_BYTES * 256);
let poolAt = pool.length;

/** 128 random bits, base64: unguessable and fresh per request. */
export function newNonce(): string {
  if (poolAt === pool.length) {
    crypto.getRandomValues(pool);
    poolAt = 0;
  }
  let s = "";
  for (let i = poolAt; i < poolAt + NONCE_BYTES; i++) s += String.fromCharCode(pool[i]!);
  poolAt += NONCE_BYTES;
  return btoa(s);
}

/**
 * The policy for a prerendered page whose inline scripts are known: they are allowed by their
 * SHA-256 (fixed at build time), external chunks by 'self'. No 'unsafe-inline', no nonce needed.
 */
export function hashedPageCsp(hashes: string[], o: PageCspOptions = {}): string {
  return policy(["'self'", ...hashes.map((h) => `'sha256-${h}'`)].join(" "), o);
}
