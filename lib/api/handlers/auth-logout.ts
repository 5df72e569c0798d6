// POST /api/auth/logout - end the current session (cookie or Bearer)
import { logoutOp } from "@/lib/api/operations";
import { json, route } from "@/lib/api/route";
import { isSignedIn } from "@/lib/auth/actor";
import { clearSessionCookieHeader } from "@/lib/auth/session-cookie";
import { revokeSessions } from "@/lib/auth/sessions";

export const POST = route(logoutOp, async ({ ctx }) => {
  if (isSignedIn(ctx.actor)) await revokeSessions(ctx.db, [ctx.actor.session.id], "logout");
  return json({ ok: true }, 200, { "Set-Cookie": clearSessionCookieHeader() });
});
