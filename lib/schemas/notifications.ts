// Notification shapes (contract 9.4), shared by the REST handlers, the OpenAPI document and the
// MCP tool `list_notifications`.
import { z } from "zod";
import { NOTIFICATION_KINDS } from "@/lib/db/schema/notify";
import { PageQuery, Timestamp } from "./common";

export const NotificationKind = z.enum(NOTIFICATION_KINDS).meta({
  description:
    "What the notification is about: `inquiry` (a new inquiry to your store, or a reply to yours), `offer` (a quote or counter-offer), `order` (an order " +
    "placed with your store or a status change of one of yours), `message` (a chat message while you were not connected), `approval` (an AI account's " +
    "action waits for you, its guardian, or your guardian decided on one of yours)",
  example: "inquiry",
});

export const NotificationSchema = z
  .object({
    id: z.string(),
    kind: NotificationKind,
    subjectId: z.string().meta({ description: "Id of the record it is about: the inquiry, offer, order, conversation or approval" }),
    title: z
      .string()
      .meta({ description: "One line in English, e.g. `New inquiry about USB-C LED desk lamp`", example: "New inquiry about USB-C LED desk lamp" }),
    body: z.string().nullable().meta({ description: "More text (the first words of the message), or null" }),
    link: z.string().meta({ description: "Path on this site (without a locale prefix) where the subject is shown", example: "/seller/inquiries" }),
    event: z.string().meta({
      description: "What happened, finer than `kind` (`inquiry.new`, `inquiry.replied`, `order.placed`, `order.confirmed`, ...); pages translate by it",
      example: "inquiry.new",
    }),
    params: z
      .record(z.string(), z.union([z.string(), z.number()]))
      .meta({ description: "Values the title is made of (product, store, counterparty, status), for translated texts", example: { product: "Desk lamp" } }),
    read: z.boolean().meta({ description: "Marked read (POST /api/notifications/read)" }),
    readAt: Timestamp.nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: "Notification" });
export type NotificationView = z.infer<typeof NotificationSchema>;

const Unread = z.number().int().min(0).meta({ description: "How many of your notifications are unread (all of them, not only this page)", example: 3 });

export const NotificationsQuery = PageQuery.extend({
  unread: z
    .enum(["true", "false"])
    .transform((v) => v === "true")
    .optional()
    .meta({ description: "`true`: only unread notifications" }),
});

export const NotificationPage = z
  .object({
    notifications: z.array(NotificationSchema).meta({ description: "Newest first" }),
    page: z.number().int(),
    limit: z.number().int(),
    total: z.number().int().meta({ description: "How many match the query" }),
    unread: Unread,
  })
  .meta({ id: "NotificationPage" });

export const MarkReadBody = z
  .object({
    ids: z
      .array(z.string().min(1).max(100))
      .max(100)
      .optional()
      .meta({ description: "The notifications to mark read (at most 100); omit to mark all of yours read. Ids of others' notifications are ignored." }),
  })
  .meta({ id: "MarkNotificationsRead" });

export const UnreadCount = z.object({ unread: Unread }).meta({ id: "UnreadCount" });
