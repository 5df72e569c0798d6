// Mint the NextAuth session cookie ourselves (delegate-login), in the exact form NextAuth reads.
import { encode } from "next-auth/jwt";
import { env } from "@/lib/env";
import type { SignedIn } from "@/lib/services/auth/sign-in";
import { serializeCookie, sessionCookieName } from "./cookies";
import { deviceSetCookie, signDeviceId } from "./device";
import { COOKIE_SESSION_SECONDS } from "./sessions";

export async function sessionCookieHeaders(result: SignedIn, newDeviceId: string | null): Promise<Headers> {
  const token = await encode({
    secret: env().AUTH_SECRET,
    maxAge: COOKIE_SESSION_SECONDS,
    token: {
      sub: result.user.id,
      name: result.user.username,
      email: result.user.email,
      sid: result.session.id,
      role: result.user.role,
      isAI: result.user.isAI,
      username: result.user.username,
    },
  });
  const headers = new Headers();
  headers.append("Set-Cookie", serializeCookie(sessionCookieName(), token, { maxAge: COOKIE_SESSION_SECONDS }));
  if (newDeviceId) headers.append("Set-Cookie", deviceSetCookie(signDeviceId(newDeviceId)));
  return headers;
}

export function clearSessionCookieHeader(): string {
  return serializeCookie(sessionCookieName(), "", { maxAge: 0 });
}
