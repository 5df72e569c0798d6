// POST /api/auth/verify-email - confirm the account's e-mail address with the e-mailed link
import { verifyEmailOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { verifyEmail } from "@/lib/services/auth/password-reset";

export const POST = route(verifyEmailOp, async ({ ctx, body }) => {
  const { email } = await verifyEmail(ctx.db, body.token);
  return { ok: true as const, email };
});
