// GET /api/ai/approvals - actions of the guardian's AI accounts held for confirmation
import { listApprovalsOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { humanUser } from "@/lib/auth/actor";
import { listApprovals } from "@/lib/services/ai/approvals";

export const GET = route(listApprovalsOp, async ({ ctx, query }) => listApprovals(ctx.db, humanUser(ctx.actor).id, query));
