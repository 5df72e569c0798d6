// The HTML cache in front of Next for the product, booth, store and exhibition pages (issue #12).
// Anonymous GETs only: a request with a session cookie or an Authorization header (people signed
// in, AI sessions, whose browsing contract 9.1 governs per request) always renders and never fills.
// An entry is the page Next rendered, stored with its CSP nonce cut out; every hit gets a fresh
// nonce in the same places and the matching policy header, so each answer still has its own nonce.
// An entry is served only while the page's version (versions.ts) is the one it was rendered at: read
// from the database on a request, or, while the page fence holds (lib/db/page-fence.ts: no write of
// what the pages show can commit without this instance hearing of it first), known unchanged since the
// last read. A change committed by any instance is therefore seen by every instance on its next
// request. Per-visitor headers (Set-Cookie above all) are never stored: the cookies the proxy would
// have set are made again for each answer.
import type { IncomingMessage, ServerResponse } from "node:http";
import { parseCookies } from "@/lib/auth/cookies";
import { deviceIdFrom, deviceSetCookie, newDevice } from "@/lib/auth/device";
import type { DbHandle } from "@/lib/db/client";
import { DEFAULT_LOCALE, LOCALES } from "@/lib/i18n/locales";
import { newNonce, pageCsp } from "@/lib/security/headers";
import { recordView } from "@/lib/services/catalog/views";
import { countingQueries, QUERY_COUNT_HEADER } from "@/lib/db/query-count";
import { fenceGeneration, fenceTrusts, keepPageFence } from "@/lib/db/page-fence";
import { pageVersion, type PageKind } from "./versions";

type Entry = {
  version: string;
  /** The page fence's generation when the version was last read (lib/db/page-fence.ts). */
  gen: number;
  /** A product page's product and store (its view is counted on every hit). */
  productId?: string;
  sellerId?: string;
  /** The page's UTF-8 bytes between the places its nonce goes (kept as buffers: a hit copies nothing). */
  parts: Buffer[];
  /** The parts' length together. */
  size: number;
  /** Kept headers, each value cut at the nonce like the page (the Link header's preloads carry it). */
  headers: [string, string[]][];
  bytes: number;
};
type Options = {
  maxBytes: number;
  buildId: string;
  https: boolean;
  db: () => Promise<DbHandle>;
};

const LOCALE_PREFIX = LOCALES.filter((l) => l !== DEFAULT_LOCALE).join("|");
const PAGE = new RegExp(`^(?:/(${LOCALE_PREFIX}))?/(products|booths|stores|exhibitions)/([^/?]+)$`);
// Headers of Next's answer worth replaying: the document type, what it varies on, and the
// alternate-language links (absolute URLs of this host, so the host is part of the key).
const KEPT = ["content-type", "vary", "link"];
const NO_STORE = "private, no-cache, no-store, max-age=0, must-revalidate";
const MAX_PAGE_BYTES = 2 * 1024 * 1024;

/** `X-Page-Cache`: hit (served from the cache), miss (rendered and stored), bypass (rendered only). */
export const PAGE_CACHE_HEADER = "X-Page-Cache";

type Match = {
  kind: PageKind;
  param: string;
  locale: string;
  setLocale: boolean;
};

/** The cacheable page this request asks for, or null (then it is not this cache's business). */
function match(req: IncomingMessage): Match | null | "bypass" {
  if (req.method !== "GET") return null;
  const m = PAGE.exec(req.url ?? "");
  if (!m) return null;
  const h = req.headers;
  // Next's client navigations ask the same URL for the RSC payload, not the document.
  if (h.rsc || h["next-router-state-tree"] || h["next-router-prefetch"] || h["next-action"]) return null;
  const cookies = parseCookies(h.cookie);
  if (h.authorization || [...cookies.keys()].some((k) => k.includes("next-auth.session-token"))) return "bypass";
  let param: string;
  try {
    param = decodeURIComponent(m[3]!);
  } catch {
    return null;
  }
  const cookieLocale = cookies.get("NEXT_LOCALE");
  if (m[1])
    return {
      kind: m[2] as PageKind,
      param,
      locale: m[1],
      setLocale: cookieLocale !== m[1],
    };
  // An unprefixed path is the default locale's only if next-intl would not redirect it elsewhere:
  // the locale cookie says so, or (without one) the visitor's first language is the default's.
  if (cookieLocale ? cookieLocale !== DEFAULT_LOCALE : firstLanguage(h["accept-language"]) !== DEFAULT_LOCALE) return "bypass";
  return {
    kind: m[2] as PageKind,
    param,
    locale: DEFAULT_LOCALE,
    setLocale: !cookieLocale,
  };
}

function firstLanguage(header: string | undefined): string {
  if (!header) return DEFAULT_LOCALE;
  const ranked = header
    .split(",")
    .map((part, i) => {
      const [tag, ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
      return {
        lang: (tag ?? "").trim().toLowerCase().split("-")[0]!,
        q: q === undefined ? 1 : Number(q),
        i,
      };
    })
    .filter((x) => x.lang && x.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  return ranked[0]?.lang ?? DEFAULT_LOCALE;
}

/** `page` cut at every `sep`: views of it, no copies (the caller's page is its own, from Buffer.concat). */
export function splitBytes(page: Buffer, sep: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = page.indexOf(sep); at >= 0; at = page.indexOf(sep, from)) {
    parts.push(page.subarray(from, at));
    from = at + sep.length;
  }
  parts.push(page.subarray(from));
  return parts;
}

export function createPageCache(o: Options) {
  const entries = new Map<string, Entry>();
  let bytes = 0;

  const drop = (key: string) => {
    const e = entries.get(key);
    if (e) bytes -= e.bytes;
    entries.delete(key);
  };
  const store = (key: string, e: Entry) => {
    drop(key);
    if (e.bytes > Math.min(MAX_PAGE_BYTES, o.maxBytes)) return;
    entries.set(key, e);
    bytes += e.bytes;
    // Least recently used first: Map keeps insertion order and a hit re-inserts its entry.
    for (const k of entries.keys()) {
      if (bytes <= o.maxBytes) break;
      drop(k);
    }
  };

  /** The cookies the proxy sets for this visitor, made afresh (never another visitor's). */
  const cookiesFor = (req: IncomingMessage, m: Match): string[] => {
    const out: string[] = [];
    if (m.setLocale) out.push(`NEXT_LOCALE=${m.locale}; Path=/; SameSite=lax`);
    // As the proxy does: a missing, forged or unsigned device cookie is replaced by a signed one.
    if (!deviceIdFrom(parseCookies(req.headers.cookie))) out.push(deviceSetCookie(newDevice().value));
    return out;
  };

  const hit = (req: IncomingMessage, res: ServerResponse, m: Match, e: Entry) => {
    const nonce = newNonce();
    const between = Buffer.from(nonce, "latin1");
    res.statusCode = 200;
    for (const [k, v] of e.headers) res.setHeader(k, v.length === 1 ? v[0]! : v.join(nonce));
    res.setHeader("Content-Security-Policy", pageCsp(nonce, { https: o.https }));
    res.setHeader("Cache-Control", NO_STORE);
    res.setHeader(PAGE_CACHE_HEADER, "hit");
    const cookies = cookiesFor(req, m);
    if (cookies.length) res.setHeader("Set-Cookie", cookies);
    res.setHeader("Content-Length", e.size + (e.parts.length - 1) * between.length);
    // One write of every part (writev): no string of the page per hit, nothing re-encoded.
    res.cork();
    e.parts.forEach((part, i) => {
      if (i) res.write(between);
      res.write(part);
    });
    res.end();
    res.uncork();
  };

  /** Lets Next answer, keeping a copy of a whole 200 HTML answer to store under `version`. */
  const fill = (req: IncomingMessage, res: ServerResponse, key: string, known: Pick<Entry, "version" | "gen" | "productId" | "sellerId">, next: () => void) => {
    res.setHeader(PAGE_CACHE_HEADER, "miss");
    // The stored copy must be the plain text (Next would gzip for a client that accepts it).
    delete req.headers["accept-encoding"];
    const chunks: Buffer[] = [];
    let size = 0;
    const write = res.write.bind(res) as (...a: unknown[]) => boolean;
    const end = res.end.bind(res) as (...a: unknown[]) => ServerResponse;
    const keep = (chunk: unknown, encoding: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === "function" || size > MAX_PAGE_BYTES) return;
      const b = Buffer.isBuffer(chunk)
        ? chunk
        : typeof chunk === "string"
          ? Buffer.from(chunk, (typeof encoding === "string" ? encoding : "utf8") as BufferEncoding)
          : Buffer.from(chunk as Uint8Array);
      chunks.push(b);
      size += b.length;
    };
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      const result = end(chunk, ...rest);
      const csp = String(res.getHeader("content-security-policy") ?? "");
      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
      const type = String(res.getHeader("content-type") ?? "");
      if (res.statusCode === 200 && nonce && type.startsWith("text/html") && !res.getHeader("content-encoding") && size <= MAX_PAGE_BYTES) {
        const parts = splitBytes(Buffer.concat(chunks), Buffer.from(nonce, "latin1"));
        const headers = KEPT.flatMap((k): [string, string[]][] => (res.getHeader(k) !== undefined ? [[k, String(res.getHeader(k)).split(nonce)]] : []));
        store(key, { ...known, parts, size: parts.reduce((n, b) => n + b.length, 0), headers, bytes: size + 256 });
      }
      return result;
    }) as typeof res.end;
    next();
  };

  /**
   * Answers the request from the cache, or lets `next` render it (storing the page when it may).
   * Returns false when the request is not one of the cached pages (the caller goes on as usual).
   */
  function serve(req: IncomingMessage, res: ServerResponse, next: () => void): boolean {
    const m = match(req);
    if (!m) return false;
    if (m === "bypass") {
      res.setHeader(PAGE_CACHE_HEADER, "bypass");
      return false;
    }
    const h = req.headers;
    const key = `${h.host ?? ""}|${h["x-forwarded-host"] ?? ""}|${h["x-forwarded-proto"] ?? ""}|${req.url}`;
    // An exhibition's status follows the clock, so its version is always read.
    const fenced = m.kind !== "exhibitions";
    const known = fenced ? entries.get(key) : undefined;
    if (known && fenceTrusts(known.gen)) {
      // Nothing the page shows can have changed since its version was read: no statement at all.
      keepPageFence();
      served(req, res, m, key, known, 0);
      return true;
    }
    void (async () => {
      const handle = await o.db();
      if (fenced) keepPageFence(handle);
      // Read before rendering: the page rendered next is at least as new as this version, and the
      // generation taken before the read is at most as new as it.
      const gen = fenceGeneration();
      const v = await pageVersion(handle, m.kind, m.param);
      if (!v) return next();
      const version = `${o.buildId}|${v.version}`;
      const e = entries.get(key);
      if (e?.version !== version) return fill(req, res, key, { version, gen, productId: v.productId, sellerId: v.sellerId }, next);
      e.gen = gen;
      served(req, res, m, key, e, 1);
    })().catch((err: unknown) => {
      console.error("page cache failed; rendering instead", err);
      if (!res.headersSent) next();
    });
    return true;
  }

  /**
   * A hit: the entry becomes the most recently used, and a product page's view is counted (a miss's by the
   * render). With DEBUG_QUERY_COUNT, `X-Query-Count` says whether its version was read (1) or not (0).
   */
  const served = (req: IncomingMessage, res: ServerResponse, m: Match, key: string, e: Entry, statements: number) => {
    if (countingQueries()) res.setHeader(QUERY_COUNT_HEADER, String(statements));
    entries.delete(key);
    entries.set(key, e);
    if (m.kind === "products" && e.productId && e.sellerId) recordView({ productId: e.productId, sellerId: e.sellerId });
    hit(req, res, m, e);
  };

  return { serve, stats: () => ({ entries: entries.size, bytes }) };
}
