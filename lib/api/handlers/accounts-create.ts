// POST /api/accounts/create - register a buyer or seller
import { createAccountOp } from "@/lib/api/operations";
import { json, route } from "@/lib/api/route";
import { createAccount } from "@/lib/services/accounts/create";

export const POST = route(createAccountOp, async ({ ctx, body }) => {
  const user = await createAccount(ctx.db, body);
  return json({ user: { id: user.id, email: user.email, username: user.username, role: user.role } }, 201);
});
