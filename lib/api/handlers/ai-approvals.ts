// GET /api/ai/approvals - actions of the guardian's AI accounts held for confirmation (an AI account: its own)
import { listApprovalsOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { signedInActor } from "@/lib/auth/actor";
import { listApprovals } from "@/lib/services/ai/approvals";

export const GET = route(listApprovalsOp, async ({ ctx, query }) => {
  const me = signedInActor(ctx.actor);
  return me.type === "ai" ? listApprovals(ctx.db, me.guardian.id, { ...query, aiUserId: me.user.id }) : listApprovals(ctx.db, me.user.id, query);
});
