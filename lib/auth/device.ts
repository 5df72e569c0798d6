// The device cookie (contract 2, 9.1): the id that tells one browser from another, issued and signed
// by the server (HMAC-SHA256 with AUTH_SECRET). Whatever acts on a device id (the one-browser rule of
// a guardian's AI accounts) reads it through `verifiedDeviceId`, so a client cannot pick or copy
// someone else's id by writing the cookie itself; a forged or unsigned value counts as no cookie and
// is replaced by a fresh one.
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { env } from "@/lib/env";
import { DEVICE_COOKIE, serializeCookie } from "./cookies";

export const DEVICE_COOKIE_SECONDS = 400 * 24 * 60 * 60;
const MAX_ID = 64;

function mac(id: string): string {
  // Domain-separated from every other use of the secret (session cookies, tokens).
  return createHmac("sha256", env().AUTH_SECRET).update(`expo-trade.device:${id}`).digest("base64url");
}

/** The cookie value for a device id: `<id>.<mac>`. */
export function signDeviceId(id: string): string {
  return `${id}.${mac(id)}`;
}

/** The device id a cookie value carries when this server signed it, else null. */
export function verifiedDeviceId(value: string | null | undefined): string | null {
  if (!value) return null;
  const dot = value.lastIndexOf(".");
  if (dot <= 0 || dot > MAX_ID) return null;
  const id = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1));
  const expected = Buffer.from(mac(id));
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}

/** The verified device id among parsed cookies (lib/auth/cookies.ts parseCookies), else null. */
export function deviceIdFrom(cookies: Map<string, string>): string | null {
  return verifiedDeviceId(cookies.get(DEVICE_COOKIE));
}

/** A new device: its id and its signed cookie value. */
export function newDevice(): { id: string; value: string } {
  const id = randomUUID();
  return { id, value: signDeviceId(id) };
}

/** `Set-Cookie` for a device cookie value (http-only, SameSite=Lax, 400 days). */
export function deviceSetCookie(value: string): string {
  return serializeCookie(DEVICE_COOKIE, value, { maxAge: DEVICE_COOKIE_SECONDS });
}
