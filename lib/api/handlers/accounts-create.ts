// POST /api/accounts/create - register a buyer or seller
import { createAccountOp } from "@/lib/api/operations";
import { json, route } from "@/lib/api/route";
import { createAccount } from "@/lib/services/accounts/create";
import { sendVerification } from "@/lib/services/auth/password-reset";

export const POST = route(createAccountOp, async ({ ctx, body }) => {
  const user = await createAccount(ctx.db, body);
  // After the account's own commit: a mail that fails to queue must not undo the registration.
  await sendVerification(ctx.db, user.id).catch((err: unknown) => console.error("verification e-mail not queued", err));
  return json({ user: { id: user.id, email: user.email, username: user.username, role: user.role } }, 201);
});
