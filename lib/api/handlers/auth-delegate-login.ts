// POST /api/auth/delegate-login - sign in (AI accounts by username) and get a session cookie
import { delegateLoginOp } from "@/lib/api/operations";
import { json, route } from "@/lib/api/route";
import { sessionCookieHeaders } from "@/lib/auth/session-cookie";
import { COOKIE_SESSION_SECONDS, revokeSessions } from "@/lib/auth/sessions";
import { parseCookies } from "@/lib/auth/cookies";
import { deviceIdFrom } from "@/lib/auth/device";
import { ApiError } from "@/lib/errors";
import { landingPath, signIn } from "@/lib/services/auth/sign-in";
import { newId } from "@/lib/ids";

export const POST = route(delegateLoginOp, async ({ req, ctx, body }) => {
  // Only a device id this server signed; a forged or unsigned cookie is replaced by a new one.
  const existingDevice = deviceIdFrom(parseCookies(req.headers.get("cookie")));
  const deviceId = existingDevice ?? newId();
  const result = await signIn(ctx.db, {
    identifier: body.email,
    password: body.password,
    kind: "cookie",
    lifetimeSeconds: COOKIE_SESSION_SECONDS,
    ip: ctx.ip,
    userAgent: ctx.userAgent,
    deviceId,
  });
  if (result.user.role === "ADMIN") {
    await revokeSessions(ctx.db, [result.session.id], "restricted");
    throw new ApiError("forbidden", "restrictTo NON_ADMIN: administrator accounts cannot sign in here");
  }
  const headers = await sessionCookieHeaders(result, existingDevice ? null : deviceId);
  return json(
    {
      user: { id: result.user.id, username: result.user.username, role: result.user.role, isAI: result.user.isAI, guardian: result.guardian },
      redirectTo: landingPath(result.user.role),
    },
    200,
    headers,
  );
});
