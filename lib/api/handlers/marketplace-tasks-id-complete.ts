// POST /api/marketplace/tasks/:id/complete - complete a claimed task with its result
import { completeTaskOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { completeTask } from "@/lib/services/community/tasks";

export const POST = route(completeTaskOp, async ({ ctx, params, body }) => ({ task: await completeTask(ctx, params.id, body.result) }));
