// Reading chat (contract 5): the conversation list with unread counts, a conversation's history
// (newest page first, oldest to newest within a page) and read positions. Everything is filtered
// by participant, which is also the buyer-data isolation of contract 3: an AI account only ever
// sees its own conversations, never its sibling's or its guardian's, except that an AI_SELLER
// shares its guardian's store's conversations (contract 9.5, ./store.ts).
import { and, desc, eq, sql } from "drizzle-orm";
import { ApiError, notFound } from "@/lib/errors";
import { signedInActor } from "@/lib/auth/actor";
import { toNumber } from "@/lib/db/client";
import { conversations, messages } from "@/lib/db/schema";
import type { ChatMessage, Conversation } from "@/lib/schemas/chat";
import type { Ctx } from "@/lib/gate/context";
import { recipientOf, viewerOf } from "./store";
import { advanceRead, conversationView, conversationViews, messageView, visibleConversation, visibleTo } from "./views";

type Page = { page: number; limit: number };

export async function listConversations(ctx: Ctx, q: Page) {
  const db = ctx.db;
  const actor = signedInActor(ctx.actor);
  const viewer = viewerOf(actor);
  const [list, [count]] = await Promise.all([
    conversationViews(db, viewer, undefined, { limit: q.limit, offset: (q.page - 1) * q.limit }),
    db
      .select({ n: sql`count(*)`.mapWith(toNumber) })
      .from(conversations)
      .where(visibleTo(viewer)),
  ]);
  return { conversations: list, page: q.page, limit: q.limit, total: count?.n ?? 0 };
}

/**
 * One page of a conversation's messages. `before` (a message id) pages by cursor, stable while new
 * messages arrive; otherwise `page` counts back from the newest. Reading moves the reader's read
 * position up to the newest message returned.
 */
export async function listMessages(ctx: Ctx, conversationId: string, q: Page & { before?: string }) {
  const db = ctx.db;
  const actor = signedInActor(ctx.actor);
  const viewer = viewerOf(actor);
  const me = viewer.id;
  const c = await visibleConversation(db, viewer, conversationId);
  if (!c) throw notFound("Conversation");
  let cursor;
  if (q.before) {
    const [b] = await db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.id, q.before), eq(messages.conversationId, c.id)));
    if (!b)
      throw new ApiError("validation_failed", "`before` is not a message of this conversation", { errors: [{ path: "before", message: "Unknown message" }] });
    // Compared in SQL: the stored timestamp has microseconds a JS Date would drop.
    cursor = sql`(${messages.createdAt}, ${messages.id}) < (select m2.created_at, m2.id from ${messages} m2 where m2.id = ${q.before})`;
  }
  const rows = await db
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, c.id), cursor))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(q.limit + 1)
    .offset(q.before ? 0 : (q.page - 1) * q.limit);
  const hasOlder = rows.length > q.limit;
  const pageRows = rows.slice(0, q.limit).reverse();
  const list: ChatMessage[] = pageRows.map((m) => messageView(m, recipientOf(c, m.senderId, c.owner)));

  const newest = pageRows[pageRows.length - 1];
  if (newest) await advanceRead(db, me, c.id, newest.id);
  const [[count], conversation] = await Promise.all([
    db
      .select({ n: sql`count(*)`.mapWith(toNumber) })
      .from(messages)
      .where(eq(messages.conversationId, c.id)),
    conversationView(db, viewer, c.id),
  ]);
  return {
    messages: list,
    conversation: conversation!,
    page: q.before ? 1 : q.page,
    limit: q.limit,
    total: count?.n ?? 0,
    nextBefore: hasOlder ? (pageRows[0]?.id ?? null) : null,
  };
}

/** Mark a conversation read up to its newest message (the socket client calls this on focus). */
export async function markConversationRead(ctx: Ctx, conversationId: string): Promise<{ conversation: Conversation }> {
  const db = ctx.db;
  const actor = signedInActor(ctx.actor);
  const viewer = viewerOf(actor);
  const c = await visibleConversation(db, viewer, conversationId);
  if (!c) throw notFound("Conversation");
  await advanceRead(db, viewer.id, c.id);
  return { conversation: (await conversationView(db, viewer, c.id))! };
}
