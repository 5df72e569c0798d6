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

/** True when a browser says this request comes from another site or origin. */
export function isCrossSite(get: HeaderGetter): boolean {
  const site = get("sec-fetch-site")?.toLowerCase();
  if (site && site !== "same-origin" && site !== "none") return true;
  const origin = get("origin");
  if (origin === null || origin === undefined) return false;
  let host: string;
  try {
    host = new URL(origin).host.toLowerCase();
  } catch {
    return true; // "null" (sandboxed frames, data: URLs) or garbage
  }
  if (host === requestHost(get)) return false;
  const publicUrl = env().NEXTAUTH_URL ?? process.env.NEXTAUTH_URL;
  if (publicUrl) {
    try {
      if (new URL(publicUrl).host.toLowerCase() === host) return false;
    } catch {
      // not a URL: ignore
    }
  }
  return true;
}

export function headerGetter(headers: Headers | Record<string, unknown>): HeaderGetter {
  if (headers instanceof Headers) return (name) => headers.get(name);
  return (name) => {
    const v = headers[name];
    return typeof v === "string" ? v : Array.isArray(v) ? String(v[0]) : undefined;
  };
}
