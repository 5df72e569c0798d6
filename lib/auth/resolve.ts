// From a Request to an Actor (contract 1): `Authorization: Bearer` (a JWT, or an `etk_` API key),
// then `X-API-Key`, then the NextAuth session cookie.
import { decode } from "next-auth/jwt";
import { unauthenticated } from "@/lib/api/errors";
import type { Db } from "@/lib/db/client";
import { env } from "@/lib/env";
import { ANONYMOUS, type Actor } from "./actor";
import { actorForApiKey, looksLikeApiKey } from "./api-keys";
import { parseCookies, readSessionCookie } from "./cookies";
import { actorForSession } from "./sessions";
import { verifyAccessToken } from "./tokens";

export async function resolveActor(db: Db, req: Request): Promise<Actor> {
  const authorization = req.headers.get("authorization");
  if (authorization) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) throw unauthenticated("The Authorization header must be `Bearer <token>`");
    if (looksLikeApiKey(match[1]!)) return keyActor(db, match[1]!);
    const claims = await verifyAccessToken(match[1]!);
    if (!claims) throw unauthenticated("The Bearer token is invalid or expired");
    const actor = await actorForSession(db, claims.sid, claims.sub, "bearer");
    if (!actor) throw unauthenticated("The session behind this token has ended; sign in again");
    return actor;
  }
  const apiKey = req.headers.get("x-api-key");
  // A key that was sent but is wrong is refused rather than ignored: falling back to the cookie
  // would let a broken agent act as whoever is signed in to the browser.
  if (apiKey !== null) return keyActor(db, apiKey.trim());
  const cookieActor = await actorFromCookieHeader(db, req.headers.get("cookie"));
  return cookieActor ?? ANONYMOUS;
}

async function keyActor(db: Db, secret: string): Promise<Actor> {
  const actor = await actorForApiKey(db, secret);
  if (!actor) throw unauthenticated("The API key is invalid or revoked, or its account is disabled");
  return actor;
}

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
