// Inquiries and replies, purchase requirements, orders.
import { boolean, index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, id, money, ts, updatedAt } from "./columns";
import { products } from "./catalog";
import { sellerProfiles, users } from "./users";

export const INQUIRY_STATUSES = ["new", "replied", "closed"] as const;

export const inquiries = pgTable(
  "inquiries",
  {
    id: id(),
    productId: text("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    sellerId: text("seller_id")
      .notNull()
      .references(() => sellerProfiles.id, { onDelete: "cascade" }),
    buyerId: text("buyer_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    message: text("message").notNull(),
    status: text("status", { enum: INQUIRY_STATUSES }).notNull().default("new"),
    sentByAI: boolean("sent_by_ai").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("inquiries_seller_status_idx").on(t.sellerId, t.status), index("inquiries_buyer_idx").on(t.buyerId)],
);

export const inquiryReplies = pgTable(
  "inquiry_replies",
  {
    id: id(),
    inquiryId: text("inquiry_id")
      .notNull()
      .references(() => inquiries.id, { onDelete: "cascade" }),
    authorId: text("author_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    message: text("message").notNull(),
    quotedPrice: money("quoted_price"),
    currency: text("currency"),
    /** `pending_guardian_approval` while a deep AI discount waits for the guardian. */
    status: text("status", { enum: ["visible", "pending_guardian_approval", "rejected", "expired"] })
      .notNull()
      .default("visible"),
    sentByAI: boolean("sent_by_ai").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index("inquiry_replies_inquiry_idx").on(t.inquiryId)],
);

export const requirements = pgTable(
  "requirements",
  {
    id: id(),
    buyerId: text("buyer_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    budget: money("budget"),
    currency: text("currency"),
    status: text("status", { enum: ["open", "closed"] })
      .notNull()
      .default("open"),
    sentByAI: boolean("sent_by_ai").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("requirements_buyer_idx").on(t.buyerId), index("requirements_status_idx").on(t.status, t.createdAt)],
);

export const ORDER_STATUSES = ["pending_guardian_approval", "placed", "confirmed", "fulfilled", "cancelled", "rejected", "expired"] as const;

export const orders = pgTable(
  "orders",
  {
    id: id(),
    productId: text("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "restrict" }),
    buyerId: text("buyer_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    sellerId: text("seller_id")
      .notNull()
      .references(() => sellerProfiles.id, { onDelete: "restrict" }),
    quantity: integer("quantity").notNull(),
    unitPrice: money("unit_price").notNull(),
    currency: text("currency").notNull(),
    total: money("total").notNull(),
    note: text("note"),
    status: text("status", { enum: ORDER_STATUSES }).notNull(),
    sentByAI: boolean("sent_by_ai").notNull().default(false),
    /** When the order reached the store (placed at once, or approved by the guardian); null: never. */
    placedAt: ts("placed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("orders_buyer_idx").on(t.buyerId, t.createdAt), index("orders_seller_idx").on(t.sellerId, t.createdAt)],
);
