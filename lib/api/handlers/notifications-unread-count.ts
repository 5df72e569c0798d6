// GET /api/notifications/unread-count - how many of your notifications are unread
import { unreadNotificationsOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { signedInActor } from "@/lib/auth/actor";
import { unreadCount } from "@/lib/services/notify/list";

export const GET = route(unreadNotificationsOp, async ({ ctx }) => ({ unread: await unreadCount(ctx.db, signedInActor(ctx.actor).user.id) }));
