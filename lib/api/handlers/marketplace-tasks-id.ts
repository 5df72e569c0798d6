// GET /api/marketplace/tasks/:id - task details
import { getTaskOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { getTask } from "@/lib/services/community/tasks";

export const GET = route(getTaskOp, async ({ ctx, params }) => ({ task: await getTask(ctx, params.id) }));
