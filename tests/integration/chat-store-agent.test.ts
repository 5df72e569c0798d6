// The owner's AI_SELLER in its store's conversations (contract 9.5; docs/decisions.md "The owner's
// AI_SELLER in the store's conversations"): it lists, reads and answers the conversations with the
// owner about the store's products, over REST and the socket, its messages marked sentByAI and
// delivered live to the buyer and the owner. The owner's other conversations stay the owner's, and
// the sibling AI_BUYER sees none of them.
import { afterEach, describe, expect, it } from "vitest";
import { api, createGuardianWithAi, createProduct, createSeller, createUser, login } from "../support/api";
import { chatSocket, type ChatSocket, type Frame } from "../support/ws";

type Msg = { id: string; conversationId: string; from: string; to: string; content: string; sentByAI: boolean };
type Conv = { id: string; otherUser: { id: string; isAI: boolean }; product: { id: string } | null; unreadCount: number; lastMessage: Msg | null };
type Sent = { message: Msg; conversation: Conv };

const sockets: ChatSocket[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.close();
});
async function socket(token: string) {
  const s = await chatSocket(token);
  sockets.push(s);
  return s;
}

const send = (token: string, json: unknown) => api<Sent>("/api/chat/messages", { token, json });
const list = (token: string) => api<{ conversations: Conv[]; total: number }>("/api/chat/conversations?limit=100", { token });
const history = (token: string, id: string) => api<{ messages: Msg[]; conversation: Conv }>(`/api/chat/messages/${id}`, { token });
const isMessage = (id: string) => (f: Frame) => f.type === "message" && f.id === id;

/** A store (the guardian's) with a product, its two AI accounts, a buyer, and another store. */
async function storeWorld() {
  const g = await createGuardianWithAi();
  const aiSeller = await login(g.aiSeller.username, g.aiPassword);
  const aiBuyer = await login(g.aiBuyer.username, g.aiPassword);
  const product = await createProduct(g.guardianToken, { keywords: ["lamp"] });
  const storeId = (await api<{ user: { sellerProfileId: string } }>("/api/auth/me", { token: g.guardianToken })).body.user.sellerProfileId;
  const buyerUser = await createUser();
  const buyer = { user: buyerUser, token: await login(buyerUser.username, buyerUser.password) };
  return { g, aiSeller, aiBuyer, product, storeId, buyer };
}

describe("the owner's AI_SELLER in the store's conversations", () => {
  it("lists, reads and answers a buyer's message to the store; buyer and owner see the answer, marked sentByAI, over REST and live", async () => {
    const { g, aiSeller, product, buyer } = await storeWorld();
    const [agentSocket, ownerSocket, buyerSocket] = [await socket(aiSeller), await socket(g.guardianToken), await socket(buyer.token)];

    const asked = await send(buyer.token, { productId: product.id, content: "Is OEM packaging possible?" });
    expect(asked.status, asked.text).toBe(201);
    const c = asked.body.conversation.id;
    expect(asked.body.message.to).toBe(g.guardian.id);
    // The agent's socket hears the store's new message live.
    expect(await agentSocket.waitFor(isMessage(asked.body.message.id))).toMatchObject({ conversationId: c, from: buyer.user.id, sentByAI: false });

    const listed = await list(aiSeller);
    expect(listed.status).toBe(200);
    const mine = listed.body.conversations.find((x) => x.id === c);
    expect(mine).toMatchObject({ otherUser: { id: buyer.user.id, isAI: false }, product: { id: product.id }, unreadCount: 1 });
    const read = await history(aiSeller, c);
    expect(read.status).toBe(200);
    expect(read.body.messages.map((m) => m.content)).toEqual(["Is OEM packaging possible?"]);
    expect(read.body.conversation.otherUser.id).toBe(buyer.user.id);
    expect((await list(aiSeller)).body.conversations.find((x) => x.id === c)!.unreadCount).toBe(0);

    // Answered over REST: stored with the agent as sender, to the buyer, in the same conversation.
    const answer = await send(aiSeller, { conversationId: c, content: "Yes, from 500 units." });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.message).toMatchObject({ conversationId: c, from: g.aiSeller.aiUserId, to: buyer.user.id, sentByAI: true });
    expect(answer.body.conversation.otherUser.id).toBe(buyer.user.id);
    for (const s of [buyerSocket, ownerSocket])
      expect(await s.waitFor(isMessage(answer.body.message.id))).toMatchObject({ conversationId: c, from: g.aiSeller.aiUserId, sentByAI: true });
    for (const token of [buyer.token, g.guardianToken]) {
      const seen = await history(token, c);
      expect(seen.body.messages.at(-1)).toMatchObject({ id: answer.body.message.id, from: g.aiSeller.aiUserId, to: buyer.user.id, sentByAI: true });
    }
    // The buyer's and the owner's lists still show one conversation, with each other.
    expect((await list(buyer.token)).body.conversations.filter((x) => x.id === c)).toMatchObject([{ otherUser: { id: g.guardian.id } }]);
    expect((await list(g.guardianToken)).body.conversations.find((x) => x.id === c)).toMatchObject({
      otherUser: { id: buyer.user.id },
      lastMessage: { from: g.aiSeller.aiUserId, sentByAI: true },
    });

    // Answered over its socket: an ack to the agent, the message to the buyer and the owner.
    agentSocket.send({ type: "message", conversationId: c, content: "Lead time 3 weeks.", clientId: "a-1" });
    const ack = await agentSocket.waitFor((f) => f.type === "ack" && f.clientId === "a-1");
    expect(ack.conversationId).toBe(c);
    for (const s of [buyerSocket, ownerSocket]) expect(await s.waitFor(isMessage(ack.id as string))).toMatchObject({ sentByAI: true, to: buyer.user.id });

    // Naming the buyer with the store's product lands in the same conversation, not a new one.
    const byName = await send(aiSeller, { to: buyer.user.username, productId: product.id, content: "Samples ship tomorrow." });
    expect(byName.status, byName.text).toBe(201);
    expect(byName.body.message.conversationId).toBe(c);
    // The owner's own message reaches the agent too.
    const owner = await send(g.guardianToken, { conversationId: c, content: "I confirm." });
    expect(await agentSocket.waitFor(isMessage(owner.body.message.id))).toMatchObject({ from: g.guardian.id, to: buyer.user.id, sentByAI: false });

    // Every action of the agent is on the guardian's audit record.
    const logs = await api<{ logs: { action: string; success: boolean }[] }>(`/api/ai/audit-logs?aiUserId=${g.aiSeller.aiUserId}&limit=100`, {
      token: g.guardianToken,
    });
    expect(logs.body.logs.filter((l) => l.action === "chat.send" && l.success).length).toBe(3);
    expect(logs.body.logs.some((l) => l.action === "chat.read" && l.success)).toBe(true);
  });

  it("keeps the owner's other conversations, and the sibling AI_BUYER, out (404, not listed, not delivered)", async () => {
    const { g, aiSeller, aiBuyer, product, storeId, buyer } = await storeWorld();
    const other = await createSeller();
    const otherProduct = await createProduct(other.token, { keywords: ["chair"] });
    const [agentSocket, siblingSocket] = [await socket(aiSeller), await socket(aiBuyer)];

    const store = (await send(buyer.token, { productId: product.id, content: "Price for 100?" })).body.conversation.id;
    // The owner as a buyer of another store, a conversation with the store but about no product,
    // and the owner's thread with its own AI_BUYER about its own product: none are the store's.
    const asBuyer = await send(g.guardianToken, { productId: otherProduct.id, content: "Do you ship to Lyon?" });
    const noProduct = await send(buyer.token, { storeId, content: "Your catalogue, please" });
    const ownAgent = await send(g.guardianToken, { to: g.aiBuyer.aiUserId, productId: product.id, content: "Watch this one" });
    for (const r of [asBuyer, noProduct, ownAgent]) expect(r.status, r.text).toBe(201);
    const privateOnes = [asBuyer, noProduct, ownAgent].map((r) => r.body.conversation.id);

    expect((await list(aiSeller)).body.conversations.map((x) => x.id)).toEqual([store]);
    for (const id of privateOnes) {
      expect((await history(aiSeller, id)).status).toBe(404);
      expect((await send(aiSeller, { conversationId: id, content: "may I?" })).status).toBe(404);
      expect((await api(`/api/chat/conversations/${id}/read`, { token: aiSeller, method: "POST" })).status).toBe(404);
    }

    // The sibling sees none of the store's (only the owner's thread with it, where it is a participant).
    expect((await list(aiBuyer)).body.conversations.map((x) => x.id)).toEqual([ownAgent.body.conversation.id]);
    expect((await history(aiBuyer, store)).status).toBe(404);
    expect((await send(aiBuyer, { conversationId: store, content: "hello" })).status).toBe(404);

    // Deliveries keep their order: once a later message arrived, an earlier one would have too.
    const last = await send(buyer.token, { conversationId: store, content: "Still there?" });
    await agentSocket.waitFor(isMessage(last.body.message.id));
    const heard = new Set(agentSocket.all("message").map((f) => f.conversationId));
    expect(privateOnes.filter((id) => id !== ownAgent.body.conversation.id).some((id) => heard.has(id))).toBe(false);
    expect(heard.has(ownAgent.body.conversation.id)).toBe(false);
    const toSibling = await send(buyer.token, { to: g.aiBuyer.aiUserId, content: "for the buyer agent" });
    await siblingSocket.waitFor(isMessage(toSibling.body.message.id));
    expect(siblingSocket.all("message").some((f) => f.conversationId === store)).toBe(false);
  });

  it("needs chat.read to list, read and hear, and chat.send to answer (403)", async () => {
    const { g, aiSeller, product, buyer } = await storeWorld();
    const c = (await send(buyer.token, { productId: product.id, content: "Hello store" })).body.conversation.id;
    const agentSocket = await socket(aiSeller);
    for (const permission of ["chat.read", "chat.send"]) {
      const flip = await api("/api/ai/permissions", {
        method: "PUT",
        token: g.guardianToken,
        json: { aiUserId: g.aiSeller.aiUserId, permission, isAllowed: false },
      });
      expect(flip.status).toBe(200);
    }
    for (const res of [await list(aiSeller), await history(aiSeller, c), await send(aiSeller, { conversationId: c, content: "answer" })]) {
      expect(res.status).toBe(403);
      expect((res.body as unknown as { code: string }).code).toBe("permission_denied");
    }
    agentSocket.send({ type: "message", conversationId: c, content: "answer", clientId: "denied" });
    expect(await agentSocket.waitFor((f) => f.type === "error" && f.clientId === "denied")).toMatchObject({ code: "permission_denied" });
    // Without chat.read nothing of the store's reaches its socket: the buyer's next message is not delivered.
    const later = await send(buyer.token, { conversationId: c, content: "Anyone?" });
    const ownerSocket = await socket(g.guardianToken);
    const mark = await send(buyer.token, { conversationId: c, content: "Marker" });
    // The owner heard the marker, so the hub has handed it to every socket; the agent's pong comes after anything it was given.
    await ownerSocket.waitFor(isMessage(mark.body.message.id));
    agentSocket.send({ type: "ping", clientId: "after" });
    await agentSocket.waitFor((f) => f.type === "pong" && f.clientId === "after");
    expect(agentSocket.all("message").some((f) => f.id === later.body.message.id || f.id === mark.body.message.id)).toBe(false);
  });
});
