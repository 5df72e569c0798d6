// NextAuth v4 configuration: the credentials provider over the same sign-in service as the other
// two login routes; JWT session strategy with a server-side session row (`sid`) behind it.
import type { AuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { ApiError } from "@/lib/errors";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { signIn } from "@/lib/services/auth/sign-in";
import { clientIp, parseCookies } from "./cookies";
import { deviceIdFrom } from "./device";
import { actorForSession, COOKIE_SESSION_SECONDS, revokeSessions } from "./sessions";

/** The `error` a throttled credentials sign-in reports (`?error=rate_limited`, signIn()'s `error`). */
export const SIGN_IN_THROTTLED = "rate_limited";
/** The `error` of a right password for a disabled account (`?error=account_disabled`). */
export const SIGN_IN_DISABLED = "account_disabled";

type SignedInUser = { id: string; name: string; email: string; sid: string; role: string; isAI: boolean };

export function authOptions(): AuthOptions {
  return {
    secret: env().AUTH_SECRET,
    session: { strategy: "jwt", maxAge: COOKIE_SESSION_SECONDS },
    pages: { signIn: "/sign-in", error: "/sign-in" },
    providers: [
      CredentialsProvider({
        id: "credentials",
        name: "Credentials",
        credentials: { email: { label: "E-mail or username", type: "text" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, req) {
          const identifier = typeof credentials?.email === "string" ? credentials.email : "";
          const password = typeof credentials?.password === "string" ? credentials.password : "";
          if (!identifier || !password || identifier.length > 254 || password.length > 1024) return null;
          // No account name holds U+0000 (and PostgreSQL text cannot): a wrong identifier, not an error.
          if (identifier.includes("\0")) return null;
          const headers = (req?.headers ?? {}) as Record<string, unknown>;
          const cookie = typeof headers.cookie === "string" ? headers.cookie : undefined;
          try {
            const result = await signIn(await getDb(), {
              identifier,
              password,
              kind: "cookie",
              lifetimeSeconds: COOKIE_SESSION_SECONDS,
              ip: clientIp(headers),
              userAgent: typeof headers["user-agent"] === "string" ? headers["user-agent"] : null,
              deviceId: deviceIdFrom(parseCookies(cookie)),
            });
            const user: SignedInUser = {
              id: result.user.id,
              name: result.user.username,
              email: result.user.email,
              sid: result.session.id,
              role: result.user.role,
              isAI: result.user.isAI,
            };
            return user;
          } catch (err) {
            if (err instanceof ApiError && err.status === 401) return null;
            // NextAuth puts a thrown error's message into the redirect URL (`?error=`): only stable codes.
            if (err instanceof ApiError && err.code === "rate_limited") throw new Error(SIGN_IN_THROTTLED);
            if (err instanceof ApiError && err.code === "account_disabled") throw new Error(SIGN_IN_DISABLED);
            console.error("sign-in failed", err);
            throw new Error("unavailable");
          }
        },
      }),
    ],
    callbacks: {
      async jwt({ token, user }) {
        // A later read (/api/auth/session): the cookie alone is not enough, its session row must be
        // live. Throwing makes NextAuth answer `{}` and clear the cookie (a revoked cookie is signed out).
        if (
          !user &&
          !(typeof token.sid === "string" && typeof token.sub === "string" && (await actorForSession(await getDb(), token.sid, token.sub, "cookie")))
        ) {
          throw new Error("session ended");
        }
        if (user) {
          const u = user as unknown as SignedInUser;
          token.sid = u.sid;
          token.role = u.role;
          token.isAI = u.isAI;
          token.username = u.name;
        }
        return token;
      },
      async session({ session, token }) {
        session.user = {
          ...(session.user ?? {}),
          id: token.sub,
          name: typeof token.username === "string" ? token.username : session.user?.name,
          role: token.role,
          isAI: token.isAI === true,
        } as typeof session.user;
        return session;
      },
      async redirect({ url, baseUrl }) {
        // Only our own origin: a callbackUrl pointing at a foreign host is replaced by the home page.
        if (url.startsWith("/") && !url.startsWith("//")) return `${baseUrl}${url}`;
        try {
          if (new URL(url).origin === new URL(baseUrl).origin) return url;
        } catch {
          // not a URL
        }
        return baseUrl;
      },
    },
    events: {
      async signOut({ token }) {
        if (typeof token?.sid === "string") await revokeSessions(await getDb(), [token.sid], "logout");
      },
    },
  };
}
