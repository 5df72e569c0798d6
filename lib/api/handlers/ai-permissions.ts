// PUT /api/ai/permissions - allow or refuse one permission of an AI account
import { setPermissionOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { humanUser } from "@/lib/auth/actor";
import { setPermission } from "@/lib/services/ai/accounts";

export const PUT = route(setPermissionOp, async ({ ctx, body }) => {
  const account = await setPermission(ctx.db, humanUser(ctx.actor).id, body.aiUserId, body.permission, body.isAllowed);
  return { aiUserId: account.aiUserId, permissions: account.permissions };
});
