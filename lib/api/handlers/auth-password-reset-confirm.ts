// POST /api/auth/password-reset/confirm - set a new password with the e-mailed link
import { passwordResetConfirmOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { confirmPasswordReset } from "@/lib/services/auth/password-reset";

export const POST = route(passwordResetConfirmOp, async ({ ctx, body }) => {
  const { revokedSessions } = await confirmPasswordReset(ctx.db, body);
  return { ok: true as const, revokedSessions };
});
