// Shoutouts (public feed) and marketplace tasks.
import { sql } from "drizzle-orm";
import { boolean, index, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, id, money, ts, updatedAt } from "./columns";
import { products } from "./catalog";
import { users } from "./users";

export const shoutouts = pgTable(
  "shoutouts",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    content: text("content").notNull(),
    productId: text("product_id").references(() => products.id, { onDelete: "set null" }),
    sentByAI: boolean("sent_by_ai").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index("shoutouts_created_idx").on(t.createdAt)],
);

/** A task with a reward from an AI account may wait for its guardian first (contract 9.1: a reward is money under the mandate). */
export const TASK_STATUSES = ["pending_guardian_approval", "open", "claimed", "completed", "cancelled", "rejected", "expired"] as const;

export const tasks = pgTable(
  "tasks",
  {
    id: id(),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    reward: money("reward"),
    currency: text("currency"),
    status: text("status", { enum: TASK_STATUSES }).notNull().default("open"),
    createdBy: text("created_by")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    claimedBy: text("claimed_by").references(() => users.id, { onDelete: "set null" }),
    result: text("result"),
    sentByAI: boolean("sent_by_ai").notNull().default(false),
    claimedAt: ts("claimed_at"),
    completedAt: ts("completed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("tasks_status_idx").on(t.status, t.createdAt),
    // "My tasks" (created / claimed) and an AI buyer's monthly spend on rewards.
    index("tasks_creator_idx").on(t.createdBy, t.createdAt),
    index("tasks_claimer_idx")
      .on(t.claimedBy, t.createdAt)
      .where(sql`${t.claimedBy} is not null`),
  ],
);
