// Where a message goes, for a whole group of messages at once: the facts every rule needs
// (conversations, users, products) are read with one statement each, then the rules run per
// message on those facts. REST and the socket both come through here, so a message is accepted or
// refused for the same reason whichever door it used.
import { ApiError, notFound } from "@/lib/errors";
import { actingSellerProfileId, type SignedInActor } from "@/lib/auth/actor";
import type { Db } from "@/lib/db/client";
import type { SendMessageInput } from "@/lib/schemas/chat";
import { assertNotSelfTrade } from "@/lib/services/ai/conduct";
import { newId } from "@/lib/ids";
import type { Raw } from "./raw";
import { otherSide, viewerOf } from "./store";

export type Target = {
  conversationId: string | null;
  /** The participant on the sender's side: the sender, or for an AI_SELLER in its store's conversation the owner. */
  side: string;
  otherId: string;
  productId: string | null;
  productSellerId: string | null;
  /** Who else gets the message live: in a store's conversation, its owner and the owner's AI_SELLER. */
  cc: string[];
};

/** A product's store: its owner and the owner's AI_SELLER (if any). */
type StoreFact = { seller_id: string | null; owner_id: string | null; agent_id: string | null };
type ConversationFact = StoreFact & {
  id: string;
  user_a: string;
  user_b: string;
  product_id: string | null;
  /** The participants' guardians: a thread between an owner and its own agent is not the store's. */
  a_guardian: string | null;
  b_guardian: string | null;
};
type ProductFact = StoreFact & { id: string; seller_id: string; is_hidden: boolean; owner_id: string };

export type Facts = {
  conversations: Map<string, ConversationFact>;
  /** By id and by lower-cased username. */
  users: Map<string, string>;
  /** User id -> its guardian (AI accounts). */
  guardians: Map<string, string | null>;
  products: Map<string, ProductFact>;
  /** Store (seller profile) id -> the owner's user id: a store is reached through its owner. */
  stores: Map<string, string>;
};

// The owner's AI_SELLER: a guardian has at most one (ai_account_exists).
const AGENT = `(select ag.id from users ag where ag.guardian_id = s.user_id and ag.role = 'AI_SELLER' limit 1) as agent_id`;
const CONVERSATIONS = `select c.id, c.user_a, c.user_b, c.product_id, p.seller_id, s.user_id as owner_id, ${AGENT},
    ua.guardian_id as a_guardian, ub.guardian_id as b_guardian
  from conversations c left join products p on p.id = c.product_id and p.deleted_at is null
    left join seller_profiles s on s.id = p.seller_id
    join users ua on ua.id = c.user_a join users ub on ub.id = c.user_b
  where c.id in (select json_array_elements_text($1::json))`;
// findUser's rule: a user by id, or by username ignoring case (usernames never look like ids). Two
// lookups, each on its index: one condition `id in (...) or lower(username) in (...)` can only be
// answered by reading every user (264 ms a group at 500,000 users, against 1.6 ms so).
export const USERS = `select id, lower(username) as uname, guardian_id from users where id in (select json_array_elements_text($1::json))
  union
  select id, lower(username) as uname, guardian_id from users where lower(username) in (select lower(json_array_elements_text($1::json)))`;
const PRODUCTS = `select p.id, p.seller_id, p.is_hidden, s.user_id as owner_id, ${AGENT} from products p join seller_profiles s on s.id = p.seller_id
  where p.id in (select json_array_elements_text($1::json)) and p.deleted_at is null`;
const STORES = `select id, user_id from seller_profiles where id in (select json_array_elements_text($1::json))`;

/** The facts for `inputs`, one statement per kind that any input needs. */
export async function loadFacts(raw: Raw, inputs: SendMessageInput[]): Promise<Facts> {
  const conversationIds = new Set<string>();
  const names = new Set<string>();
  const productIds = new Set<string>();
  const storeIds = new Set<string>();
  for (const i of inputs) {
    if (i.storeId !== undefined) storeIds.add(i.storeId);
    if (i.conversationId) conversationIds.add(i.conversationId);
    if (i.to !== undefined) names.add(i.to);
    if (i.productId && !i.conversationId) productIds.add(i.productId);
  }
  const facts: Facts = {
    conversations: new Map(),
    users: new Map(),
    guardians: new Map(),
    products: new Map(),
    stores: new Map(),
  };
  if (conversationIds.size)
    for (const c of await raw<ConversationFact>(CONVERSATIONS, [JSON.stringify([...conversationIds])])) facts.conversations.set(c.id, c);
  if (names.size) {
    for (const u of await raw<{ id: string; uname: string; guardian_id: string | null }>(USERS, [JSON.stringify([...names])])) {
      facts.users.set(u.id, u.id);
      facts.guardians.set(u.id, u.guardian_id);
      if (!facts.users.has(u.uname)) facts.users.set(u.uname, u.id);
    }
  }
  if (productIds.size) for (const p of await raw<ProductFact>(PRODUCTS, [JSON.stringify([...productIds])])) facts.products.set(p.id, p);
  if (storeIds.size) for (const st of await raw<{ id: string; user_id: string }>(STORES, [JSON.stringify([...storeIds])])) facts.stores.set(st.id, st.user_id);
  return facts;
}

const invalid = (path: string, message: string) => new ApiError("validation_failed", message, { errors: [{ path, message }] });
const findUser = (facts: Facts, idOrUsername: string) => facts.users.get(idOrUsername) ?? facts.users.get(idOrUsername.toLowerCase()) ?? null;

/** The rules of sending, on the facts: the target, or the ApiError that refuses the message. */
export async function resolveTarget(tx: Db, facts: Facts, actor: SignedInActor, input: SendMessageInput): Promise<Target> {
  const target = input.conversationId ? existingTarget(facts, actor, input) : newTarget(facts, actor, input);
  await assertNotSelfTrade(
    { db: tx, actor },
    {
      userId: target.otherId,
      sellerProfileId: selfTradeStore(actor, target.productSellerId),
    },
  );
  return target;
}

/**
 * The store whose conversation this is (./store.ts): about a product of the store, its owner a
 * participant, the other participant none of the owner's own accounts.
 */
function storeOf(c: ConversationFact): StoreFact | null {
  if (!c.owner_id) return null;
  if (c.user_a === c.owner_id && c.b_guardian !== c.owner_id) return c;
  if (c.user_b === c.owner_id && c.a_guardian !== c.owner_id) return c;
  return null;
}

const ccOf = (store: StoreFact | null) => (store ? ([store.owner_id, store.agent_id].filter(Boolean) as string[]) : []);

function existingTarget(facts: Facts, actor: SignedInActor, input: SendMessageInput): Target {
  const me = actor.user.id;
  const viewer = viewerOf(actor);
  const c = facts.conversations.get(input.conversationId!);
  const participant = c && (c.user_a === me || c.user_b === me);
  const store = c ? storeOf(c) : null;
  const shared = !participant && viewer.store && store?.seller_id === viewer.store.storeId;
  if (!c || (!participant && !shared)) throw notFound("Conversation");
  const pair = { userA: c.user_a, userB: c.user_b };
  const otherId = otherSide(pair, viewer);
  // `to` and `productId` may accompany a conversationId (the socket frame carries `to`), but must
  // name this conversation: a message never lands in a thread the client did not mean.
  if (input.to !== undefined && input.to !== otherId && findUser(facts, input.to) !== otherId)
    throw invalid("to", "`to` is not the other participant of this conversation");
  if (input.productId !== undefined && input.productId !== c.product_id) throw invalid("productId", "`productId` is not the product of this conversation");
  if (input.storeId !== undefined && facts.stores.get(input.storeId) !== otherId) throw invalid("storeId", "`storeId` is not the other participant's store");
  return {
    conversationId: c.id,
    side: shared ? viewer.store!.ownerId : me,
    otherId,
    productId: c.product_id,
    productSellerId: c.seller_id,
    cc: ccOf(store),
  };
}

/**
 * A new message names its recipient by `to` (a user), `storeId` (the store's owner) or, alone,
 * `productId` (the product's store's owner): a buyer agent sees only store ids on products, stores
 * and inquiries, and the store's conversations are its owner's (shared with the owner's AI_SELLER).
 */
function newTarget(facts: Facts, actor: SignedInActor, input: SendMessageInput): Target {
  const me = actor.user.id;
  let productSellerId: string | null = null;
  let productOwner: string | null = null;
  let product: ProductFact | null = null;
  if (input.productId) {
    const p = facts.products.get(input.productId);
    // A hidden product exists only for its own store's accounts.
    if (!p || (p.is_hidden && p.seller_id !== actingSellerProfileId(actor))) throw notFound("Product");
    productSellerId = p.seller_id;
    productOwner = p.owner_id;
    product = p;
  }
  let otherId: string | null;
  let named: "to" | "storeId" | "productId";
  if (input.to !== undefined) {
    named = "to";
    otherId = findUser(facts, input.to);
    if (!otherId) throw notFound("User");
  } else if (input.storeId !== undefined) {
    named = "storeId";
    otherId = facts.stores.get(input.storeId) ?? null;
    if (!otherId) throw notFound("Store");
    if (productSellerId && productSellerId !== input.storeId) throw invalid("productId", "`productId` is not a product of this store");
  } else {
    named = "productId";
    otherId = productOwner!;
  }
  if (otherId === me) throw invalid(named, named === "to" ? "You cannot send a message to yourself" : "This is your own store");
  // An AI_SELLER naming a buyer about its store's product writes in the store's conversation with
  // that buyer (the owner's), not in a thread of its own beside it.
  const store = viewerOf(actor).store;
  const side = store && productSellerId === store.storeId ? store.ownerId : me;
  const guardianOf = (id: string) => (id === me ? (actor.type === "ai" ? actor.guardian.id : null) : (facts.guardians.get(id) ?? null));
  const isStore =
    product && ((side === product.owner_id && guardianOf(otherId) !== side) || (otherId === product.owner_id && side === me && guardianOf(me) !== otherId));
  return {
    conversationId: null,
    side,
    otherId,
    productId: input.productId ?? null,
    productSellerId,
    cc: isStore ? ccOf(product) : [],
  };
}

/**
 * The store whose product makes this a self-trade. An AI_SELLER speaks for its guardian's store,
 * so that store's products are its own side of the conversation (answering buyers about them is
 * its job); its guardian and sibling are still refused through the counterparty check.
 */
function selfTradeStore(actor: SignedInActor, productSellerId: string | null): string | null {
  return productSellerId && productSellerId !== actingSellerProfileId(actor) ? productSellerId : null;
}

type PairKey = { a: string; b: string; p: string | null };
const lockKey = (k: PairKey) => `chat:${k.a}:${k.b}:${k.p ?? ""}`;

// The advisory locks serialize the first messages of a pair (a unique index cannot, since
// product_id may be null), taken in one sorted order so two groups never wait on each other.
const LOCK_PAIRS = `select count(pg_advisory_xact_lock(hashtext(k))) from (select json_array_elements_text($1::json) as k order by 1) s`;
// Each pair's oldest conversation, looked up on the pair's index one key at a time (a join lets the
// planner read every conversation into a hash instead while there are a few thousand: 3.7 ms a group
// of 100 against 1.3).
export const FIND_PAIRS = `select c.id, x.a as user_a, x.b as user_b, x.p as product_id
  from json_to_recordset($1::json) as x(a text, b text, p text)
  cross join lateral (select c.id from conversations c
    where c.user_a = x.a and c.user_b = x.b and c.product_id is not distinct from x.p order by c.created_at limit 1) c`;
const CREATE_PAIRS = `insert into conversations (id, user_a, user_b, product_id)
  select x.id, x.a, x.b, x.p from json_to_recordset($1::json) as x(id text, a text, b text, p text)`;

/** Give every new-pair target its conversation: the pair's existing one, else one created now. */
export async function findOrCreateConversations(raw: Raw, targets: Target[]): Promise<void> {
  const open = targets.filter((t) => t.conversationId === null);
  if (open.length === 0) return;
  const keyOf = ({ side: me, otherId, productId: p }: Target): PairKey => (me < otherId ? { a: me, b: otherId, p } : { a: otherId, b: me, p });
  const keys = new Map<string, PairKey>();
  for (const x of open) keys.set(lockKey(keyOf(x)), keyOf(x));
  await raw(LOCK_PAIRS, [JSON.stringify([...keys.keys()])]);
  const found = new Map<string, string>();
  for (const c of await raw<{
    id: string;
    user_a: string;
    user_b: string;
    product_id: string | null;
  }>(FIND_PAIRS, [JSON.stringify([...keys.values()])])) {
    found.set(lockKey({ a: c.user_a, b: c.user_b, p: c.product_id }), c.id);
  }
  const created = [...keys].filter(([k]) => !found.has(k)).map(([k, key]) => ({ ...key, id: newId(), k }));
  if (created.length) await raw(CREATE_PAIRS, [JSON.stringify(created)]);
  for (const c of created) found.set(c.k, c.id);
  for (const t of open) t.conversationId = found.get(lockKey(keyOf(t)))!;
}
