// Chat queries shared by the verbs: conversations as one participant sees them (the other user,
// the product, the last message, the unread count) and messages as the API and the socket send them.
// A viewer is a participant, or the owner's AI_SELLER in its store's conversations (./store.ts).
import { and, desc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { toNumber, type Db } from "@/lib/db/client";
import { conversationReads, conversations, messages, products, sellerProfiles, users } from "@/lib/db/schema";
import type { ChatMessage, Conversation } from "@/lib/schemas/chat";
import { markSubjectRead } from "@/lib/services/notify/list";
import { otherSideSql, recipientOf, storeConversation, type Viewer } from "./store";

type MessageRow = typeof messages.$inferSelect;
export type ConversationRow = typeof conversations.$inferSelect;

export function messageView(m: MessageRow, to: string): ChatMessage {
  return { id: m.id, conversationId: m.conversationId, from: m.senderId, to, content: m.content, sentByAI: m.sentByAI, createdAt: m.createdAt.toISOString() };
}

/** Only a participant ever finds a conversation: for anyone else it does not exist (404). */
export const participantIn = (me: string) => or(eq(conversations.userA, me), eq(conversations.userB, me))!;

/** The conversations `viewer` may read: its own, and for an AI_SELLER its store's. */
export const visibleTo = (viewer: Viewer): SQL => (viewer.store ? or(participantIn(viewer.id), storeConversation(viewer.store))! : participantIn(viewer.id));

const other = alias(users, "other_user");
// The company the other side trades as: its own store, or for an AI account its guardian's.
const otherStore = alias(sellerProfiles, "other_store");

/** The conversations of `viewer` matching `where`, most recent activity first. */
export async function conversationViews(db: Db, viewer: Viewer, where: SQL | undefined, page = { limit: 1, offset: 0 }): Promise<Conversation[]> {
  const me = viewer.id;
  const otherId = otherSideSql(viewer);
  // Unread: messages after the reader's read position that the reader did not send.
  const unread = sql<number>`(select count(*) from ${messages} where ${messages.conversationId} = ${conversations.id} and ${messages.senderId} <> ${me} and ${messages.createdAt} > coalesce(${conversationReads.lastReadAt}, '-infinity'::timestamptz))`;
  const rows = await db
    .select({
      c: conversations,
      other: { id: other.id, username: other.username, role: other.role, companyName: otherStore.companyName },
      product: { id: products.id, title: products.title, deletedAt: products.deletedAt },
      owner: sellerProfiles.userId,
      unread: unread.mapWith(toNumber),
    })
    .from(conversations)
    .innerJoin(other, eq(other.id, otherId))
    .leftJoin(otherStore, eq(otherStore.userId, sql`coalesce(${other.guardianId}, ${other.id})`))
    .leftJoin(products, eq(products.id, conversations.productId))
    .leftJoin(sellerProfiles, eq(sellerProfiles.id, products.sellerId))
    .leftJoin(conversationReads, and(eq(conversationReads.conversationId, conversations.id), eq(conversationReads.userId, me)))
    .where(and(visibleTo(viewer), where))
    .orderBy(desc(sql`coalesce(${conversations.lastMessageAt}, ${conversations.createdAt})`), desc(conversations.id))
    .limit(page.limit)
    .offset(page.offset);
  if (rows.length === 0) return [];

  const last = await db
    .selectDistinctOn([messages.conversationId])
    .from(messages)
    .where(
      inArray(
        messages.conversationId,
        rows.map((r) => r.c.id),
      ),
    )
    .orderBy(messages.conversationId, desc(messages.createdAt), desc(messages.id));
  const lastBy = new Map(last.map((m) => [m.conversationId, m]));

  return rows.map(({ c, other: o, product, owner, unread: n }) => {
    const lm = lastBy.get(c.id);
    return {
      id: c.id,
      otherUser: { id: o.id, username: o.username, companyName: o.companyName ?? null, isAI: o.role === "AI_BUYER" || o.role === "AI_SELLER" },
      // A deleted product leaves the thread; its title is no longer shown.
      product: product?.id && !product.deletedAt ? { id: product.id, title: product.title } : null,
      lastMessage: lm ? messageView(lm, recipientOf(c, lm.senderId, owner)) : null,
      unreadCount: n,
      updatedAt: (c.lastMessageAt ?? c.createdAt).toISOString(),
      createdAt: c.createdAt.toISOString(),
    };
  });
}

/** One conversation of `viewer`, or null when it does not exist or `viewer` may not read it. */
export async function conversationView(db: Db, viewer: Viewer, conversationId: string): Promise<Conversation | null> {
  const [view] = await conversationViews(db, viewer, eq(conversations.id, conversationId));
  return view ?? null;
}

/** A conversation `viewer` may read, with its product's store's owner (who the AI_SELLER's messages are not to). */
export async function visibleConversation(db: Db, viewer: Viewer, conversationId: string): Promise<(ConversationRow & { owner: string | null }) | null> {
  const [row] = await db
    .select({ c: conversations, owner: sellerProfiles.userId })
    .from(conversations)
    .leftJoin(products, eq(products.id, conversations.productId))
    .leftJoin(sellerProfiles, eq(sellerProfiles.id, products.sellerId))
    .where(and(eq(conversations.id, conversationId), visibleTo(viewer)))
    .limit(1);
  return row ? { ...row.c, owner: row.owner } : null;
}

/** A stored message with its recipient, for a delivery too large to travel in a NOTIFY payload. */
export async function loadMessage(db: Db, id: string): Promise<ChatMessage | null> {
  const [row] = await db
    .select({ m: messages, c: { userA: conversations.userA, userB: conversations.userB }, owner: sellerProfiles.userId })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .leftJoin(products, eq(products.id, conversations.productId))
    .leftJoin(sellerProfiles, eq(sellerProfiles.id, products.sellerId))
    .where(eq(messages.id, id))
    .limit(1);
  return row ? messageView(row.m, recipientOf(row.c, row.m.senderId, row.owner)) : null;
}

/**
 * Move `me`'s read position forward to the time of `upTo` (a message id, or the conversation's
 * newest message). Computed in SQL: the stored microseconds must not be cut to a JS millisecond.
 */
export async function advanceRead(db: Db, me: string, conversationId: string, upTo?: string): Promise<void> {
  const at = upTo
    ? sql`(select ${messages.createdAt} from ${messages} where ${messages.id} = ${upTo})`
    : sql`(select max(${messages.createdAt}) from ${messages} where ${messages.conversationId} = ${conversationId})`;
  await db
    .insert(conversationReads)
    .values({ conversationId, userId: me, lastReadAt: sql`coalesce(${at}, now())` })
    .onConflictDoUpdate({
      target: [conversationReads.conversationId, conversationReads.userId],
      set: { lastReadAt: sql`greatest(${conversationReads.lastReadAt}, excluded.last_read_at)` },
    });
  // Its "new message" notification is settled by reading the conversation, so the next message
  // after this one notifies again (lib/services/notify/events.ts coalesces per conversation).
  await markSubjectRead(db, me, "message", conversationId);
}
