// Send a chat message (contract 5): to a conversation the sender is in, or to a user (by id or
// username), optionally about a product, which starts the pair's conversation or continues it.
// One code path for REST and the socket: the same checks, the same row, the same delivery.
import { and, asc, eq, isNull, or, sql } from "drizzle-orm";
import { ApiError, notFound } from "@/lib/api/errors";
import { actingSellerProfileId, type SignedInActor } from "@/lib/auth/actor";
import type { Db } from "@/lib/db/client";
import { conversations, messages, products, users } from "@/lib/db/schema";
import { notifyMessage } from "@/lib/realtime/fanout";
import type { ChatMessage, Conversation, SendMessageInput } from "@/lib/schemas/chat";
import { assertNotSelfTrade } from "@/lib/services/ai/conduct";
import { advanceRead, conversationView, messageView, otherParticipant, participantConversation, type ConversationRow } from "./views";

export type SendOptions = {
  /** The socket the message came from: it gets an ack, the sender's other sockets the message. */
  originSocket?: string;
};

const invalid = (path: string, message: string) => new ApiError("validation_failed", message, { errors: [{ path, message }] });

/**
 * Store the message and queue its delivery in one transaction (inside the caller's, if any: the
 * route wrapper's audit transaction for AI accounts), so it is delivered only once it is stored.
 */
export async function sendMessage(db: Db, actor: SignedInActor, input: SendMessageInput, opts: SendOptions = {}): Promise<{ message: ChatMessage; conversation: Conversation }> {
  return db.transaction(async (tx) => {
    const message = await store(tx, actor, input, opts);
    return { message, conversation: (await conversationView(tx, actor.user.id, message.conversationId))! };
  });
}

/** sendMessage without the conversation view (the socket's ack needs only the message). */
export function storeMessage(db: Db, actor: SignedInActor, input: SendMessageInput, opts: SendOptions = {}): Promise<ChatMessage> {
  return db.transaction((tx) => store(tx, actor, input, opts));
}

async function store(tx: Db, actor: SignedInActor, input: SendMessageInput, opts: SendOptions): Promise<ChatMessage> {
  const me = actor.user.id;
  const target = input.conversationId ? await existingTarget(tx, me, input) : await newTarget(tx, actor, input);
  await assertNotSelfTrade(tx, actor, { userId: target.otherId, sellerProfileId: selfTradeStore(actor, target.productSellerId) });
  const conversation = target.conversation ?? (await findOrCreate(tx, me, target.otherId, target.productId));

  const [row] = await tx
    .insert(messages)
    .values({ conversationId: conversation.id, senderId: me, content: input.content, sentByAI: actor.type === "ai" })
    .returning();
  await tx.update(conversations).set({ lastMessageAt: sql`now()` }).where(eq(conversations.id, conversation.id));
  // Writing in a conversation means having read it up to one's own message.
  await advanceRead(tx, me, conversation.id, row!.id);
  const message = messageView(row!, target.otherId);
  await notifyMessage(tx, message, opts.originSocket);
  return message;
}

type Target = { conversation: ConversationRow | null; otherId: string; productId: string | null; productSellerId: string | null };

async function existingTarget(db: Db, me: string, input: SendMessageInput): Promise<Target> {
  const c = await participantConversation(db, me, input.conversationId!);
  if (!c) throw notFound("Conversation");
  const otherId = otherParticipant(c, me);
  // `to` and `productId` may accompany a conversationId (the socket frame carries `to`), but must
  // name this conversation: a message never lands in a thread the client did not mean.
  if (input.to !== undefined && input.to !== otherId && (await findUser(db, input.to))?.id !== otherId) throw invalid("to", "`to` is not the other participant of this conversation");
  if (input.productId !== undefined && input.productId !== c.productId) throw invalid("productId", "`productId` is not the product of this conversation");
  const product = c.productId ? await findProduct(db, c.productId) : null;
  return { conversation: c, otherId, productId: c.productId, productSellerId: product?.sellerId ?? null };
}

async function newTarget(db: Db, actor: SignedInActor, input: SendMessageInput): Promise<Target> {
  const me = actor.user.id;
  const other = await findUser(db, input.to!);
  if (!other) throw notFound("User");
  if (other.id === me) throw invalid("to", "You cannot send a message to yourself");
  let productSellerId: string | null = null;
  if (input.productId) {
    const p = await findProduct(db, input.productId);
    // A hidden product exists only for its own store's accounts.
    if (!p || (p.isHidden && p.sellerId !== actingSellerProfileId(actor))) throw notFound("Product");
    productSellerId = p.sellerId;
  }
  return { conversation: null, otherId: other.id, productId: input.productId ?? null, productSellerId };
}

/**
 * The store whose product makes this a self-trade. An AI_SELLER speaks for its guardian's store,
 * so that store's products are its own side of the conversation (answering buyers about them is
 * its job); its guardian and sibling are still refused through the counterparty check.
 */
function selfTradeStore(actor: SignedInActor, productSellerId: string | null): string | null {
  return productSellerId && productSellerId !== actingSellerProfileId(actor) ? productSellerId : null;
}

/** The pair's conversation about this product (or about none), created on first use. */
async function findOrCreate(db: Db, me: string, otherId: string, productId: string | null): Promise<ConversationRow> {
  const [userA, userB] = me < otherId ? [me, otherId] : [otherId, me];
  // Serializes the first messages of a pair: a unique index cannot, since product_id may be null
  // (and becomes null when a product is deleted, so several product-less threads can exist).
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`chat:${userA}:${userB}:${productId ?? ""}`}))`);
  const [existing] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.userA, userA), eq(conversations.userB, userB), productId ? eq(conversations.productId, productId) : isNull(conversations.productId)))
    .orderBy(asc(conversations.createdAt))
    .limit(1);
  if (existing) return existing;
  const [created] = await db.insert(conversations).values({ userA, userB, productId }).returning();
  return created!;
}

/** A user by id or by username (case-insensitive); usernames never look like ids (36 characters). */
async function findUser(db: Db, idOrUsername: string) {
  const [u] = await db
    .select({ id: users.id })
    .from(users)
    .where(or(eq(users.id, idOrUsername), sql`lower(${users.username}) = lower(${idOrUsername})`))
    .limit(1);
  return u ?? null;
}

async function findProduct(db: Db, id: string) {
  const [p] = await db
    .select({ id: products.id, sellerId: products.sellerId, isHidden: products.isHidden })
    .from(products)
    .where(and(eq(products.id, id), isNull(products.deletedAt)))
    .limit(1);
  return p ?? null;
}
