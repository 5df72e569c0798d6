// The gate for web pages (contract 9.1): an AI account signed in to the site in a browser browses
// product, search, booth and store pages only while it holds `product.browse`. Each such page view
// is on its audit log like an API call; a refusal answers a translated 403 page. People's requests
// pass after decoding their cookie (no database read); anonymous ones pass at once.
import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { clientIp } from "@/lib/auth/cookies";
import { aiActorFromCookieHeader } from "@/lib/auth/resolve";
import { getDb } from "@/lib/db/client";
import { DEFAULT_LOCALE, isLocale, textDirection, type Locale } from "@/lib/i18n/locales";
import { auditRecord, permissionRefusal } from "./gate";

/** The catalog pages of product.browse, with or without a locale prefix. */
const BROWSE_PAGE = /^\/(?:([a-z]{2})\/)?(?:products|search|booths|stores)(?:\/|$)/;

/** Whether a page request needs the gate at all (a session cookie on a catalog page). */
export function browsePageLocale(method: string | undefined, url: string, cookie: string | undefined): Locale | null {
  if ((method !== "GET" && method !== "HEAD") || !cookie?.includes("session-token")) return null;
  const m = BROWSE_PAGE.exec(url.split("?")[0]!);
  if (!m) return null;
  return m[1] === undefined ? DEFAULT_LOCALE : isLocale(m[1]) ? m[1] : null;
}

/**
 * Check a catalog page request: true when it may be rendered (audited for an AI account), false
 * when the 403 page was answered (and the refusal audited).
 */
export async function gateBrowsePage(req: IncomingMessage, res: ServerResponse, locale: Locale): Promise<boolean> {
  const db = await getDb();
  const actor = await aiActorFromCookieHeader(db, req.headers.cookie ?? null);
  if (!actor) return true;
  const refusal = permissionRefusal(actor, "product.browse");
  const target = (req.url ?? "/").split("?")[0]!.slice(0, 300);
  const details = refusal ? `permission_denied: page ${req.method} ${target} -> 403` : `page ${req.method} ${target}`;
  // A view is what the person (or agent) asked for, not what the browser fetched ahead: a link's
  // prefetch is refused but not recorded, nor a refused client-side navigation, which the browser
  // then repeats as a full page load (recorded once, there).
  const prefetch = req.headers["next-router-prefetch"] !== undefined || /prefetch/i.test(String(req.headers["sec-purpose"] ?? req.headers.purpose ?? ""));
  const refusedRsc = refusal !== null && req.headers.rsc !== undefined;
  if (!prefetch && !refusedRsc) {
    await auditRecord(db, actor, { permission: "product.browse" }, clientIp(req.headers as Record<string, unknown>), !refusal, details);
  }
  if (!refusal) return true;
  const body = refusalPage(locale);
  res.writeHead(403, {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "private, no-store",
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  });
  res.end(req.method === "HEAD" ? undefined : body);
  return false;
}

type Texts = { title: string; browse: string; home: string };
const KEY = Symbol.for("expo-trade.refusal-texts");
const cache = (): Map<Locale, Texts> => ((globalThis as { [KEY]?: Map<Locale, Texts> })[KEY] ??= new Map());

function texts(locale: Locale): Texts {
  let t = cache().get(locale);
  if (!t) {
    const file = path.join(process.cwd(), "messages", `${locale}.json`);
    t = (JSON.parse(readFileSync(file, "utf8")) as { Refused: Texts }).Refused;
    cache().set(locale, t);
  }
  return t;
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function refusalPage(locale: Locale): string {
  const t = texts(locale);
  const home = locale === DEFAULT_LOCALE ? "/" : `/${locale}`;
  return `<!doctype html>
<html lang="${locale}" dir="${textDirection(locale)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escape(t.title)} | Expo Trade</title>
<style>body{font-family:system-ui,sans-serif;margin:0;background:#f8fafc;color:#0f172a}main{max-width:40rem;margin:4rem auto;padding:2rem;background:#fff;border:1px solid #e2e8f0;border-radius:1rem}h1{font-size:1.5rem;margin:0 0 1rem}a{color:#1d4ed8}</style></head>
<body><main><h1>${escape(t.title)}</h1><p>${escape(t.browse)}</p><p><a href="${home}">${escape(t.home)}</a></p></main></body></html>`;
}
