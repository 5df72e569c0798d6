// POST /api/auth/password-reset - e-mail a password-reset link (202 whether or not the address is known)
import { passwordResetOp } from "@/lib/api/operations";
import { json, route } from "@/lib/api/route";
import { requestPasswordReset } from "@/lib/services/auth/password-reset";

export const POST = route(passwordResetOp, async ({ ctx, body }) => {
  await requestPasswordReset(ctx.db, { email: body.email, ip: ctx.ip });
  return json({ ok: true, message: "If an account uses this address, a link is on its way." }, 202);
});
