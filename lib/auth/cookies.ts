// Cookie names and parsing, shared by the API wrapper, NextAuth options and pages.
import { env } from "@/lib/env";

export const DEVICE_COOKIE = "et_device";

export function secureCookies(): boolean {
  return (env().NEXTAUTH_URL ?? "").startsWith("https://");
}

/** NextAuth's session cookie name (the `__Secure-` prefix only over https). */
export function sessionCookieName(): string {
  return secureCookies() ? "__Secure-next-auth.session-token" : "next-auth.session-token";
}

export function parseCookies(header: string | null | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!header) return out;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    const raw = part.slice(eq + 1).trim();
    if (out.has(name)) continue;
    try {
      out.set(name, decodeURIComponent(raw));
    } catch {
      out.set(name, raw);
    }
  }
  return out;
}

/** NextAuth splits large cookies into `.0`, `.1`, ... chunks; join them back. */
export function readSessionCookie(cookies: Map<string, string>): string | undefined {
  const name = sessionCookieName();
  const whole = cookies.get(name);
  if (whole) return whole;
  const chunks: string[] = [];
  for (let i = 0; cookies.has(`${name}.${i}`); i++) chunks.push(cookies.get(`${name}.${i}`)!);
  return chunks.length ? chunks.join("") : undefined;
}

export function serializeCookie(
  name: string,
  value: string,
  opts: { maxAge?: number; httpOnly?: boolean; path?: string; sameSite?: "Lax" | "Strict" } = {},
): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${opts.path ?? "/"}`, `SameSite=${opts.sameSite ?? "Lax"}`];
  if (opts.httpOnly !== false) parts.push("HttpOnly");
  if (opts.maxAge !== undefined) parts.push(`Max-Age=${opts.maxAge}`);
  if (secureCookies()) parts.push("Secure");
  return parts.join("; ");
}

/** The client address: set by server.ts from the socket (never trusted from the client). */
export const REMOTE_ADDR_HEADER = "x-expo-remote-addr";

export function clientIp(headers: Headers | Record<string, unknown>): string {
  const get = (name: string): string | undefined => {
    if (headers instanceof Headers) return headers.get(name) ?? undefined;
    const v = (headers as Record<string, unknown>)[name];
    return typeof v === "string" ? v : Array.isArray(v) ? String(v[0]) : undefined;
  };
  // Behind N trusted proxies the client is the Nth address from the right of X-Forwarded-For: each
  // proxy appends the peer it saw, and anything further left was sent by the client (a spoofed
  // entry must not pick its own rate-limit bucket).
  const hops = env().TRUST_PROXY;
  if (hops > 0) {
    const chain = (get("x-forwarded-for") ?? "")
      .split(",")
      .map((a) => a.trim())
      .filter(Boolean);
    if (chain.length) return chain[Math.max(0, chain.length - hops)]!;
  }
  return get(REMOTE_ADDR_HEADER) ?? "unknown";
}
