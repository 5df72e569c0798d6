// POST /api/auth/verify-email/resend - e-mail a new verification link to the signed-in account
import { resendVerificationOp } from "@/lib/api/operations";
import { json, route } from "@/lib/api/route";
import { signedIn } from "@/lib/services/trade/common";
import { sendVerification } from "@/lib/services/auth/password-reset";

export const POST = route(resendVerificationOp, async ({ ctx }) => {
  const { sent } = await sendVerification(ctx.db, signedIn(ctx.actor).user.id);
  return json({ ok: true, sent }, 202);
});
