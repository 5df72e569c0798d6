// Cross-site request refusal for ambient credentials (issue #7, point 5: CSRF). A browser sends the
// session cookie (SameSite=Lax) with same-site requests and with top-level cross-site navigations;
// a state-changing request that a browser marks as coming from another site or origin
// (`Sec-Fetch-Site`, `Origin`) is refused unless it carries its own credentials (Bearer or API key,
// which another site cannot make a browser send). Clients that send neither header (curl, SDKs,
// server-to-server) are not browsers acting for a user and pass.
import { env } from "@/lib/env";

type HeaderGetter = (name: string) => string | null | undefined;

/** The host this request was addressed to, as the browser saw it. */
function requestHost(get: HeaderGetter): string | null {
  const forwarded = env().TRUST_PROXY ? get("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  return (forwarded || get("host") || "").toLowerCase() || null;
}

/**
 * True when a browser says this request comes from another site or origin. A sibling origin of the
 * same site (`Sec-Fetch-Site: same-site`) passes only when it is listed as one of the site's own.
 */
export function isCrossSite(get: HeaderGetter, origins: OwnOrigins = configuredOrigins()): boolean {
  const origin = get("origin");
  const site = get("sec-fetch-site")?.toLowerCase();
  if (site && site !== "same-origin" && site !== "none" && !(site === "same-site" && origins.listed(origin))) return true;
  return !origins.allows(origin, get);
}

export type OwnOrigins = {
  /** No Origin (not a browser) passes; otherwise the Origin must be one of the site's own. */
  allows(origin: string | null | undefined, get: HeaderGetter): boolean;
  /** The Origin is one configured in WS_ALLOWED_ORIGINS (another origin the site serves pages from). */
  listed(origin: string | null | undefined): boolean;
};

/**
 * The site's own origins, the one rule for cookie-carrying HTTP writes and the chat socket's
 * handshake: the origin whose host is the host the request was addressed to (same-origin; behind
 * TRUST_PROXY the forwarded host), NEXTAUTH_URL's origin (the public address behind a proxy that
 * rewrites Host) and any listed in WS_ALLOWED_ORIGINS (comma-separated). `null`, malformed and
 * non-HTTP origins are never the site's own.
 */
export function ownOrigins(publicUrl: string | undefined, extra: string | undefined): OwnOrigins {
  const others = new Set((extra ?? "").split(",").flatMap((raw) => originOf(raw.trim()) ?? []));
  const own = new Set(others);
  const publicOrigin = originOf(publicUrl?.trim());
  if (publicOrigin) own.add(publicOrigin);
  return {
    allows(origin, get) {
      if (origin === null || origin === undefined) return true;
      const normalized = originOf(origin);
      if (!normalized) return false;
      if (own.has(normalized)) return true;
      const host = requestHost(get);
      return !!host && new URL(normalized).host === host;
    },
    listed(origin) {
      const normalized = originOf(origin ?? undefined);
      return !!normalized && others.has(normalized);
    },
  };
}

let configured: { key: string; origins: OwnOrigins } | undefined;

/** ownOrigins() of this process's configuration. */
export function configuredOrigins(): OwnOrigins {
  const e = env();
  const publicUrl = e.PUBLIC_URL;
  const extra = e.WS_ALLOWED_ORIGINS;
  const key = `${publicUrl ?? ""}\n${extra ?? ""}`;
  if (configured?.key !== key) configured = { key, origins: ownOrigins(publicUrl, extra) };
  return configured.origins;
}

function originOf(value: string | undefined): string | null {
  if (!value || value === "null") return null;
  try {
    const u = new URL(value);
    return u.protocol === "http:" || u.protocol === "https:" ? u.origin : null;
  } catch {
    return null;
  }
}

export function headerGetter(headers: Headers | Record<string, unknown>): HeaderGetter {
  if (headers instanceof Headers) return (name) => headers.get(name);
  return (name) => {
    const v = headers[name];
    return typeof v === "string" ? v : Array.isArray(v) ? String(v[0]) : undefined;
  };
}
