// Reading one's own notifications: the list, the unread count (the header's badge), marking read.
// Every query is filtered by the caller's user id: another account's notifications do not exist.
import { and, count, desc, eq, inArray, isNull } from "drizzle-orm";
import { signedInActor } from "@/lib/auth/actor";
import type { Db } from "@/lib/db/client";
import { notifications } from "@/lib/db/schema";
import type { Ctx } from "@/lib/gate/context";
import type { NotificationView } from "@/lib/schemas/notifications";

type Row = typeof notifications.$inferSelect;

const view = (r: Row): NotificationView => ({
  id: r.id,
  kind: r.kind,
  subjectId: r.subjectId,
  title: r.title,
  body: r.body,
  link: r.link,
  event: r.event,
  params: r.params,
  read: r.readAt !== null,
  readAt: r.readAt?.toISOString() ?? null,
  createdAt: r.createdAt.toISOString(),
});

const mine = (userId: string) => eq(notifications.userId, userId);
const unreadOf = (userId: string) => and(mine(userId), isNull(notifications.readAt));

export async function unreadCount(db: Db, userId: string): Promise<number> {
  const [n] = await db.select({ n: count() }).from(notifications).where(unreadOf(userId));
  return Number(n?.n ?? 0);
}

export async function listNotifications(ctx: Ctx, q: { unread?: boolean; page: number; limit: number }) {
  const me = signedInActor(ctx.actor).user.id;
  const where = q.unread ? unreadOf(me) : mine(me);
  const rows = await ctx.db
    .select()
    .from(notifications)
    .where(where)
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(q.limit)
    .offset((q.page - 1) * q.limit);
  const [total] = await ctx.db.select({ n: count() }).from(notifications).where(where);
  const unread = q.unread ? Number(total?.n ?? 0) : await unreadCount(ctx.db, me);
  return { notifications: rows.map(view), page: q.page, limit: q.limit, total: Number(total?.n ?? 0), unread };
}

/** Mark the given notifications (or, without ids, all) of the caller read; others' ids are ignored. */
export async function markNotificationsRead(ctx: Ctx, input: { ids?: string[] }) {
  const me = signedInActor(ctx.actor).user.id;
  const where = input.ids ? and(unreadOf(me), inArray(notifications.id, input.ids.length ? input.ids : [""])) : unreadOf(me);
  await ctx.db.update(notifications).set({ readAt: new Date() }).where(where);
  return { unread: await unreadCount(ctx.db, me) };
}

/** Reading the subject itself (a conversation) settles its notification. */
export async function markSubjectRead(db: Db, userId: string, kind: Row["kind"], subjectId: string): Promise<void> {
  await db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(and(unreadOf(userId), eq(notifications.kind, kind), eq(notifications.subjectId, subjectId)));
}
