// Bearer JWTs (contract 2): HS256 with AUTH_SECRET, 12 h, claims sub, sid, role, isAI.
import { errors, jwtVerify, SignJWT } from "jose";
import { env } from "@/lib/env";

export const TOKEN_LIFETIME_SECONDS = 12 * 60 * 60;
const ISSUER = "expo-trade";

export type TokenClaims = { sub: string; sid: string; role: string; isAI: boolean };

function key(): Uint8Array {
  return new TextEncoder().encode(env().AUTH_SECRET);
}

// Imported once per secret and process (jose would import a raw key again on every verify).
const KEY = Symbol.for("expo-trade.jwt-verify-key");
type G = typeof globalThis & { [KEY]?: { secret: string; key: Promise<CryptoKey> } };
function verifyKey(): Promise<CryptoKey> {
  const g = globalThis as G;
  const secret = env().AUTH_SECRET;
  if (g[KEY]?.secret !== secret) {
    g[KEY] = { secret, key: crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["verify"]) };
  }
  return g[KEY].key;
}

export async function signAccessToken(claims: TokenClaims, expiresAt: Date): Promise<string> {
  return new SignJWT({ sid: claims.sid, role: claims.role, isAI: claims.isAI })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(claims.sub)
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(key());
}

/** The claims of a valid token, or null for anything else (bad signature, alg, expiry, shape). */
export async function verifyAccessToken(token: string): Promise<TokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, await verifyKey(), { algorithms: ["HS256"], issuer: ISSUER });
    if (typeof payload.sub !== "string" || !payload.sub) return null;
    if (typeof payload.sid !== "string" || !payload.sid) return null;
    return {
      sub: payload.sub,
      sid: payload.sid,
      role: typeof payload.role === "string" ? payload.role : "",
      isAI: payload.isAI === true,
    };
  } catch (err) {
    if (err instanceof errors.JOSEError || err instanceof TypeError) return null;
    throw err;
  }
}
