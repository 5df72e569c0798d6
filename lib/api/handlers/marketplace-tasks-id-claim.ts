// POST /api/marketplace/tasks/:id/claim - claim an open task
import { claimTaskOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { claimTask } from "@/lib/services/community/tasks";

export const POST = route(claimTaskOp, async ({ ctx, params }) => ({ task: await claimTask(ctx, params.id) }));
