// A store's conversations (contract 9.5): those with the store's owner as a participant and a
// product of the store as their subject. The owner's AI_SELLER lists, reads and sends in them as
// well, without being a participant (the conversation stays the owner's and the buyer's pair, so
// the owner's inbox and the buyer's thread are unchanged). Everything else stays private to its two
// participants: the owner's conversations without a product or as a buyer of another store, and
// anything of the sibling AI_BUYER (buyer-data isolation between siblings, contract 3).
import { sql, type SQL } from "drizzle-orm";
import type { SignedInActor } from "@/lib/auth/actor";
import { outer } from "@/lib/db/outer-column";
import { conversations } from "@/lib/db/schema";

/** The store an account reads and writes the conversations of, besides its own: an AI_SELLER's guardian's. */
export type StoreSide = { ownerId: string; storeId: string };

/** Who reads: an account, and for an AI_SELLER the store whose conversations it shares. */
export type Viewer = { id: string; store: StoreSide | null };

export function viewerOf(actor: SignedInActor): Viewer {
  const store =
    actor.type === "ai" && actor.user.role === "AI_SELLER" && actor.guardian.sellerProfileId
      ? { ownerId: actor.guardian.id, storeId: actor.guardian.sellerProfileId }
      : null;
  return { id: actor.user.id, store };
}

/**
 * The store's conversations, as a condition on `conversations`: about a (not deleted) product of
 * the store, with the owner on one side and, on the other, nobody of the owner's own (its AI
 * accounts: a thread between a guardian and its agents is not the store's business with a buyer).
 */
export function storeConversation(store: StoreSide): SQL {
  const [a, b, product] = [outer(conversations.userA), outer(conversations.userB), outer(conversations.productId)];
  const notOwn = (col: SQL) => sql`not exists (select 1 from users own where own.id = ${col} and own.guardian_id = ${store.ownerId})`;
  return sql`(${product} in (select sp.id from products sp where sp.seller_id = ${store.storeId} and sp.deleted_at is null)
    and ((${a} = ${store.ownerId} and ${notOwn(b)}) or (${b} = ${store.ownerId} and ${notOwn(a)})))`;
}

/** The participant at the other end from `viewer`: the buyer, in a store conversation read by its AI_SELLER. */
export function otherSideSql(viewer: Viewer): SQL {
  const [a, b] = [outer(conversations.userA), outer(conversations.userB)];
  const side = viewer.store ? sql`(${a} = ${viewer.id} or (${a} = ${viewer.store.ownerId} and ${b} <> ${viewer.id}))` : sql`${a} = ${viewer.id}`;
  return sql`case when ${side} then ${b} else ${a} end`;
}

type Pair = { userA: string; userB: string };

/** The other participant from `viewer`'s side of a conversation it may read. */
export function otherSide(c: Pair, viewer: Viewer): string {
  if (c.userA === viewer.id) return c.userB;
  if (c.userB === viewer.id) return c.userA;
  return c.userA === viewer.store?.ownerId ? c.userB : c.userA;
}

/**
 * A message's recipient: the other participant, or, for a message of the owner's AI_SELLER (not a
 * participant), the one who is not its store's owner. `owner`: the owner of the conversation's
 * product's store, when known.
 */
export function recipientOf(c: Pair, senderId: string, owner: string | null): string {
  if (senderId === c.userA) return c.userB;
  if (senderId === c.userB) return c.userA;
  return c.userA === owner ? c.userB : c.userA;
}
