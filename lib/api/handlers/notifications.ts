// GET /api/notifications - your notifications, newest first, with the unread count
import { listNotificationsOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { listNotifications } from "@/lib/services/notify/list";

export const GET = route(listNotificationsOp, async ({ ctx, query }) => listNotifications(ctx, query));
