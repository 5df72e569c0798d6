// GET /api/marketplace/tasks - list tasks
// POST /api/marketplace/tasks - create a task
import { createTaskOp, listTasksOp } from "@/lib/api/operations";
import { json, route } from "@/lib/api/route";
import { createTask, listTasks } from "@/lib/services/community/tasks";

export const GET = route(listTasksOp, async ({ ctx, query }) => listTasks(ctx, query));

export const POST = route(createTaskOp, async ({ ctx, body }) => json({ task: await createTask(ctx, body) }, 201));
