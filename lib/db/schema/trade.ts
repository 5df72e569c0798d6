// Inquiries and replies, purchase requirements, offers and their threads, orders.
import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, text, uniqueIndex, type AnyPgColumn } from "drizzle-orm/pg-core";
import { createdAt, id, money, ts, updatedAt } from "./columns";
import { categories, products } from "./catalog";
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
    /** What kind of goods (the stores' board filters by it). */
    categoryId: text("category_id").references(() => categories.id, { onDelete: "set null" }),
    /** How many units are wanted (a quote's quantity is compared with it). */
    quantity: integer("quantity"),
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
    /** The accepted offer this order was placed from (contract 9.4); null for a catalog order. */
    offerId: text("offer_id").references((): AnyPgColumn => offers.id, { onDelete: "set null" }),
    status: text("status", { enum: ORDER_STATUSES }).notNull(),
    sentByAI: boolean("sent_by_ai").notNull().default(false),
    /** When the order reached the store (placed at once, or approved by the guardian); null: never. */
    placedAt: ts("placed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("orders_buyer_idx").on(t.buyerId, t.createdAt),
    index("orders_seller_idx").on(t.sellerId, t.createdAt),
    index("orders_offer_idx").on(t.offerId),
  ],
);

/**
 * A negotiation (contract 9.4) between one buyer and one store: about one inquiry, or about one
 * requirement (one thread per store that quotes on it).
 */
export const offerThreads = pgTable(
  "offer_threads",
  {
    id: id(),
    inquiryId: text("inquiry_id").references(() => inquiries.id, { onDelete: "cascade" }),
    requirementId: text("requirement_id").references(() => requirements.id, { onDelete: "cascade" }),
    sellerId: text("seller_id")
      .notNull()
      .references(() => sellerProfiles.id, { onDelete: "cascade" }),
    buyerId: text("buyer_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    /** Moved by every new offer, so lists show the liveliest negotiations first. */
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("offer_threads_inquiry_key").on(t.inquiryId),
    uniqueIndex("offer_threads_requirement_store_key").on(t.requirementId, t.sellerId),
    index("offer_threads_buyer_idx").on(t.buyerId, t.updatedAt),
    index("offer_threads_seller_idx").on(t.sellerId, t.updatedAt),
  ],
);

export const OFFER_STATUSES = ["open", "accepted", "declined", "superseded", "expired", "pending_guardian_approval"] as const;

export const offers = pgTable(
  "offers",
  {
    id: id(),
    threadId: text("thread_id")
      .notNull()
      .references(() => offerThreads.id, { onDelete: "cascade" }),
    fromSide: text("from_side", { enum: ["buyer", "seller"] }).notNull(),
    authorId: text("author_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    productId: text("product_id").references(() => products.id, { onDelete: "set null" }),
    unitPrice: money("unit_price").notNull(),
    currency: text("currency").notNull(),
    quantity: integer("quantity").notNull(),
    message: text("message").notNull().default(""),
    validUntil: ts("valid_until").notNull(),
    status: text("status", { enum: OFFER_STATUSES }).notNull(),
    /**
     * Why it waits for a guardian: `send` (an AI seller's offer, shown only to its own side until
     * approved; it keeps the mark when rejected or expired, so it never reaches the buyer) or
     * `accept` (an AI buyer's acceptance over its mandate; the store still sees the offer open).
     */
    heldFor: text("held_for", { enum: ["send", "accept"] }),
    /** The inquiry reply this offer was made from (a reply with `quotedPrice`). */
    replyId: text("reply_id").references(() => inquiryReplies.id, { onDelete: "set null" }),
    sentByAI: boolean("sent_by_ai").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("offers_thread_idx").on(t.threadId, t.createdAt),
    index("offers_status_valid_idx").on(t.status, t.validUntil),
    // The offer a quoted reply opened (inquiry lists link it).
    index("offers_reply_idx")
      .on(t.replyId)
      .where(sql`${t.replyId} is not null`),
  ],
);
