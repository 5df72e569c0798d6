// POST /api/marketplace/tasks/:id/cancel - cancel your open task
import { cancelTaskOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { cancelTask } from "@/lib/services/community/tasks";

export const POST = route(cancelTaskOp, async ({ ctx, params }) => ({ task: await cancelTask(ctx, params.id) }));
