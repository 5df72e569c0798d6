// Contract 1: paths without `/api` (`/products`, `/auth/login`, ...) answer as their `/api` twins
// when the request is an API request; a browser asking for HTML still gets the page. Used by
// proxy.ts, which rewrites before locale routing runs.
import { allOperations } from "./operations/list";

/**
 * Set by server.ts on Next's own page fetches (an `RSC` header or `_rsc` in the query), which Next
 * hides from the proxy. A client sending it only gets the page instead of the API: it grants nothing.
 */
export const PAGE_FETCH_HEADER = "x-expo-page-fetch";

let segments: ReadonlySet<string> | undefined;

/** First path segments under /api, from the operation registry (so a new route needs no edit here). */
export function apiFirstSegments(): ReadonlySet<string> {
  return (segments ??= new Set(allOperations().flatMap((op) => /^\/api\/([^/{]+)/.exec(op.path)?.[1] ?? [])));
}

/** The `/api` path a request should be rewritten to, or null to leave it to the pages. */
export function apiAliasTarget(pathname: string, headers: Headers): string | null {
  const first = pathname.split("/")[1];
  if (!first || !apiFirstSegments().has(first)) return null;
  // Next's own navigations (RSC payloads, prefetches, server actions) always belong to the pages.
  if (headers.has("rsc") || headers.has("next-router-prefetch") || headers.has("next-action")) return null;
  return isApiRequest(headers) ? `/api${pathname}` : null;
}

export function isApiRequest(headers: Headers): boolean {
  if (headers.has("authorization") || headers.has("x-api-key")) return true;
  const type = (headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/json" || /^application\/[\w.-]+\+json$/.test(type)) return true;
  return prefersJson(headers.get("accept") ?? "");
}

type Match = { q: number; specificity: number; index: number };

/** Whether `Accept` ranks application/json above text/html (q, then specificity, then order), or takes JSON without naming HTML. */
export function prefersJson(accept: string): boolean {
  const ranges = accept.split(",").flatMap((part, index) => {
    const [range, ...params] = part.trim().toLowerCase().split(";");
    if (!range) return [];
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    return [{ range: range.trim(), q: Number.isFinite(q) ? q : 0, index }];
  });
  const match = (type: string): Match => {
    const [major] = type.split("/");
    let best: Match = { q: 0, specificity: -1, index: Infinity };
    for (const r of ranges) {
      const specificity = r.range === type ? 2 : r.range === `${major}/*` ? 1 : r.range === "*/*" ? 0 : -1;
      if (specificity > best.specificity) best = { q: r.q, specificity, index: r.index };
    }
    return best;
  };
  // No Accept at all, or one that names no HTML (`*/*` from curl and python-requests): not a browser,
  // whose navigations always name text/html (contract 9.5, issue #16).
  if (ranges.length === 0) return true;
  const json = match("application/json");
  const html = match("text/html");
  if (json.q <= 0) return false;
  if (html.specificity < 2 && json.q >= html.q) return true;
  if (json.q !== html.q) return json.q > html.q;
  if (json.specificity !== html.specificity) return json.specificity > html.specificity;
  return json.index < html.index;
}
