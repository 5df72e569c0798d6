// POST /api/auth/login - sign in and get a Bearer JWT
import { loginOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { signAccessToken, TOKEN_LIFETIME_SECONDS } from "@/lib/auth/tokens";
import { signIn } from "@/lib/services/auth/sign-in";

export const POST = route(loginOp, async ({ ctx, body }) => {
  const { user, session } = await signIn(ctx.db, {
    identifier: body.email,
    password: body.password,
    kind: "token",
    lifetimeSeconds: TOKEN_LIFETIME_SECONDS,
    ip: ctx.ip,
    userAgent: ctx.userAgent,
  });
  const token = await signAccessToken({ sub: user.id, sid: session.id, role: user.role, isAI: user.isAI }, session.expiresAt);
  return {
    token,
    tokenType: "Bearer" as const,
    expiresAt: session.expiresAt.toISOString(),
    user: { id: user.id, email: user.email, username: user.username, role: user.role, isAI: user.isAI },
  };
});
