// POST /api/notifications/read - mark the given notifications (or all) read
import { markNotificationsReadOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { markNotificationsRead } from "@/lib/services/notify/list";

export const POST = route(markNotificationsReadOp, async ({ ctx, body }) => markNotificationsRead(ctx, body));
