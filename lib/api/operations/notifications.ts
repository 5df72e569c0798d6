// Notifications (contract 9.4): the signed-in account's own, for people and AI accounts alike.
import { errorResponses } from "@/lib/schemas/common";
import { MarkReadBody, NotificationPage, NotificationsQuery, UnreadCount } from "@/lib/schemas/notifications";
import { defineOperation } from "../operation";

const tags = ["Notifications"];
const own =
  "Each account sees only its own notifications. AI accounts need no permission for them (the calls are audited); an AI account's live frames on " +
  "`/ws/chat` follow `chat.read`.";

export const listNotificationsOp = defineOperation({
  method: "GET",
  path: "/api/notifications",
  operationId: "listNotifications",
  summary: "Your notifications, newest first, with the unread count",
  description:
    "What happened that concerns you: a new inquiry to your store or a reply to yours, an offer, an order placed with your store or a status change of " +
    "your order, a chat message that arrived while you had no chat socket open (one per conversation until you read it), an AI account's action " +
    "waiting for you as its guardian, or your guardian's decision on yours. The same notifications arrive live on `/ws/chat` as " +
    '`{ "type": "notification", id, kind, subjectId, title }` and, for people, by e-mail when the server has SMTP configured. `unread=true` lists ' +
    `only unread ones. ${own}`,
  tags,
  access: "user",
  permission: "none",
  action: "notification.list",
  query: NotificationsQuery,
  responses: { 200: { description: "Notifications", schema: NotificationPage }, ...errorResponses(400, 401, 429) },
});

export const unreadNotificationsOp = defineOperation({
  method: "GET",
  path: "/api/notifications/unread-count",
  operationId: "countUnreadNotifications",
  summary: "How many of your notifications are unread (the header's badge)",
  description: own,
  tags,
  access: "user",
  permission: "none",
  action: "notification.list",
  responses: { 200: { description: "Unread count", schema: UnreadCount }, ...errorResponses(401, 429) },
});

export const markNotificationsReadOp = defineOperation({
  method: "POST",
  path: "/api/notifications/read",
  operationId: "markNotificationsRead",
  summary: "Mark notifications read (the given ones, or all)",
  description: `\`{ ids: [...] }\` marks those of yours read (unknown ids and others' are ignored); \`{}\` marks all of yours read. Answers the unread count left. ${own}`,
  tags,
  access: "user",
  permission: "none",
  action: "notification.read",
  body: MarkReadBody,
  responses: { 200: { description: "Unread count after marking", schema: UnreadCount }, ...errorResponses(400, 401, 429) },
});
