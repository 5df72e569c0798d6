// Notifications (contract 9.4): one row per person to tell, and the e-mails they cause. An e-mail
// is written to the outbox in the transaction that made its notification, so a rolled-back action
// mails nobody, and a sender delivers it after the commit (lib/services/notify/outbox.ts).
import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, id, ts } from "./columns";
import { users } from "./users";

export const NOTIFICATION_KINDS = ["inquiry", "offer", "order", "message", "approval"] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const notifications = pgTable(
  "notifications",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: NOTIFICATION_KINDS }).notNull(),
    /** The record it is about (inquiry, offer, order, conversation, approval id). */
    subjectId: text("subject_id").notNull(),
    /** English; pages translate from `event` + `params` instead. */
    title: text("title").notNull(),
    body: text("body"),
    /** A site path (no locale) where the subject is shown, e.g. `/seller/inquiries`. */
    link: text("link").notNull(),
    /** What happened (`inquiry.new`, `order.confirmed`, ...) and its values, for translated texts. */
    event: text("event").notNull(),
    params: jsonb("params").$type<Record<string, string | number>>().notNull().default({}),
    readAt: ts("read_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("notifications_user_created_idx").on(t.userId, t.createdAt.desc()),
    // The badge counts only unread rows: kept small however long the history grows. Kind and subject
    // too: coalescing a new notification and reading a subject find theirs without walking the rest.
    index("notifications_user_unread_idx")
      .on(t.userId, t.kind, t.subjectId)
      .where(sql`${t.readAt} is null`),
  ],
);

export const OUTBOX_STATUSES = ["pending", "sent", "failed"] as const;

export const emailOutbox = pgTable(
  "email_outbox",
  {
    id: id(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    notificationId: text("notification_id").references(() => notifications.id, { onDelete: "set null" }),
    status: text("status", { enum: OUTBOX_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    /** Not tried again before this time (backoff after a failure). */
    nextAttemptAt: ts("next_attempt_at").notNull().defaultNow(),
    createdAt: createdAt(),
    sentAt: ts("sent_at"),
  },
  (t) => [
    index("email_outbox_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);
