// From a Request to an Actor (contract 1): `Authorization: Bearer` (a JWT, or an `etk_` API key),
// then `X-API-Key`, then the NextAuth session cookie. Credentials that were sent but are not valid
// are refused (401); the caller's `onInvalid` runs first, so the attempt is counted against the
// anonymous tier of its address (contract 9.1) and guessing tokens or keys is rate limited.
import { decode } from "next-auth/jwt";
import { unauthenticated } from "@/lib/errors";
import { shortDb, type Db } from "@/lib/db/client";
import { env } from "@/lib/env";
import { ANONYMOUS, type Actor } from "./actor";
import { actorForApiKey, looksLikeApiKey } from "./api-keys";
import { parseCookies, readSessionCookie } from "./cookies";
import { actorForSession } from "./sessions";
import { verifyAccessToken } from "./tokens";

export async function resolveActor(request: Db, req: Request, onInvalid?: () => Promise<void>): Promise<Actor> {
  // Short reads by key, on every request: not behind the search statements (shortDb).
  const db = shortDb(request);
  const refuse = async (detail: string): Promise<never> => {
    await onInvalid?.();
    throw unauthenticated(detail);
  };
  const authorization = req.headers.get("authorization");
  if (authorization) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) return refuse("The Authorization header must be `Bearer <token>`");
    if (looksLikeApiKey(match[1]!)) return (await actorForApiKey(db, match[1]!)) ?? refuse(BAD_KEY);
    const claims = await verifyAccessToken(match[1]!);
    if (!claims) return refuse("The Bearer token is invalid or expired");
    return (await actorForSession(db, claims.sid, claims.sub, "bearer")) ?? refuse("The session behind this token has ended; sign in again");
  }
  const apiKey = req.headers.get("x-api-key");
  // A key that was sent but is wrong is refused rather than ignored: falling back to the cookie
  // would let a broken agent act as whoever is signed in to the browser.
  if (apiKey !== null) return (await actorForApiKey(db, apiKey.trim())) ?? refuse(BAD_KEY);
  // A bad or ended session cookie is no credential at all: the request is anonymous, and counted so.
  const cookieActor = await actorFromCookieHeader(db, req.headers.get("cookie"));
  return cookieActor ?? ANONYMOUS;
}

const BAD_KEY = "The API key is invalid or revoked, or its account is disabled";

/** The claims of a NextAuth session cookie, or null (no cookie, bad cookie). */
async function cookieClaims(cookieHeader: string | null) {
  const raw = readSessionCookie(parseCookies(cookieHeader));
  if (!raw) return null;
  const token = await decode({ token: raw, secret: env().AUTH_SECRET }).catch(() => null);
  if (!token || typeof token.sub !== "string" || typeof token.sid !== "string") return null;
  return { sid: token.sid, sub: token.sub, isAI: token.isAI === true };
}

/** The actor of a NextAuth session cookie, or null (no cookie, bad cookie, ended session). */
export async function actorFromCookieHeader(db: Db, cookieHeader: string | null) {
  const claims = await cookieClaims(cookieHeader);
  return claims ? actorForSession(db, claims.sid, claims.sub, "cookie") : null;
}

/** The AI account of a session cookie, or null; a person's cookie costs no database read. */
export async function aiActorFromCookieHeader(db: Db, cookieHeader: string | null) {
  const claims = await cookieClaims(cookieHeader);
  if (!claims?.isAI) return null;
  const actor = await actorForSession(db, claims.sid, claims.sub, "cookie");
  return actor?.type === "ai" ? actor : null;
}
