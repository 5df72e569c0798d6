// POST /api/ai/approvals/:id/reject - reject a held order, quote or price
import { rejectOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { humanUser } from "@/lib/auth/actor";
import { decideApproval } from "@/lib/services/ai/approvals";

export const POST = route(rejectOp, async ({ ctx, params }) => ({ approval: await decideApproval(ctx.db, humanUser(ctx.actor).id, params.id, "rejected") }));
