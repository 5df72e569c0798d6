// Chat over REST: conversations, history, unread counts, participants only, validation, and the
// AI conduct rules (disclosure, self-trade, permissions, isolation). The socket is in chat-live.
import { describe, expect, it } from "vitest";
import { api, createGuardianWithAi, createProduct, createSeller, createUser, login } from "../support/api";

type Msg = { id: string; conversationId: string; from: string; to: string; content: string; sentByAI: boolean; createdAt: string };
type Conv = {
  id: string;
  otherUser: { id: string; username: string; companyName: string | null; isAI: boolean };
  product: { id: string; title: string } | null;
  lastMessage: Msg | null;
  unreadCount: number;
  updatedAt: string;
};
type Sent = { message: Msg; conversation: Conv };
type MsgPage = { messages: Msg[]; conversation: Conv; page: number; limit: number; total: number; nextBefore: string | null };
type ConvPage = { conversations: Conv[]; page: number; limit: number; total: number };

async function person() {
  const user = await createUser();
  return { user, token: await login(user.username, user.password) };
}

const send = (token: string, json: unknown) => api<Sent>("/api/chat/messages", { token, json });
const conversations = (token: string) => api<ConvPage>("/api/chat/conversations", { token });
const history = (token: string, id: string, query = "") => api<MsgPage>(`/api/chat/messages/${id}${query}`, { token });
const refusals = async (guardianToken: string, aiUserId: string) =>
  (await api<{ total: number }>(`/api/ai/audit-logs?aiUserId=${aiUserId}&action=chat.send&success=false`, { token: guardianToken })).body.total;

describe("chat over REST", () => {
  it("starts a conversation by username, continues it by id, pages history and counts unread", async () => {
    const a = await person();
    const b = await person();
    const first = await send(a.token, { to: b.user.username.toUpperCase(), content: "  Hello B  " });
    expect(first.status).toBe(201);
    const { message, conversation } = first.body;
    expect(message).toMatchObject({ from: a.user.id, to: b.user.id, content: "Hello B", sentByAI: false });
    expect(new Date(message.createdAt).toISOString()).toBe(message.createdAt);
    expect(conversation).toMatchObject({
      id: message.conversationId,
      otherUser: { id: b.user.id, username: b.user.username, companyName: null, isAI: false },
      product: null,
      unreadCount: 0,
    });

    const second = await send(a.token, { conversationId: conversation.id, content: "second" });
    const third = await send(a.token, { to: b.user.id, content: "third" });
    expect([second.status, third.status]).toEqual([201, 201]);
    expect(third.body.message.conversationId).toBe(conversation.id);

    const listB = await conversations(b.token);
    expect(listB.status).toBe(200);
    expect(listB.body).toMatchObject({ page: 1, limit: 20, total: 1 });
    expect(listB.body.conversations[0]).toMatchObject({
      id: conversation.id,
      otherUser: { id: a.user.id },
      unreadCount: 3,
      lastMessage: { id: third.body.message.id, content: "third" },
    });

    // Newest page first, oldest to newest within it; `before` walks back.
    const newest = await history(b.token, conversation.id, "?limit=2");
    expect(newest.status).toBe(200);
    expect(newest.body.messages.map((m) => m.content)).toEqual(["second", "third"]);
    expect(newest.body).toMatchObject({ total: 3, limit: 2 });
    expect(newest.body.nextBefore).toBe(second.body.message.id);
    const older = await history(b.token, conversation.id, `?limit=2&before=${newest.body.nextBefore}`);
    expect(older.body.messages.map((m) => m.content)).toEqual(["Hello B"]);
    expect(older.body.nextBefore).toBeNull();
    expect((await history(b.token, conversation.id, "?limit=2&page=2")).body.messages.map((m) => m.content)).toEqual(["Hello B"]);

    // Reading the newest page marked it read for B only.
    expect((await conversations(b.token)).body.conversations[0]!.unreadCount).toBe(0);
    const reply = await send(b.token, { conversationId: conversation.id, content: "hi A" });
    expect(reply.body.message).toMatchObject({ from: b.user.id, to: a.user.id });
    expect((await conversations(a.token)).body.conversations[0]!.unreadCount).toBe(1);
    const read = await api<{ conversation: Conv }>(`/api/chat/conversations/${conversation.id}/read`, { token: a.token, method: "POST" });
    expect(read.status).toBe(200);
    expect(read.body.conversation.unreadCount).toBe(0);
    expect((await conversations(a.token)).body.conversations[0]!.unreadCount).toBe(0);
  });

  it("keeps one thread per pair and product, sorted by last activity", async () => {
    const buyer = await person();
    const seller = await createSeller();
    const other = await person();
    const product = await createProduct(seller.token);
    const direct = await send(buyer.token, { to: seller.user.username, content: "general question" });
    const about = await send(buyer.token, { to: seller.user.id, productId: product.id, content: "about the product" });
    expect(about.status).toBe(201);
    expect(about.body.conversation.id).not.toBe(direct.body.conversation.id);
    expect(about.body.conversation.product).toEqual({ id: product.id, title: expect.any(String) });
    expect((await send(seller.token, { to: buyer.user.id, productId: product.id, content: "answer" })).body.message.conversationId).toBe(
      about.body.conversation.id,
    );
    await send(buyer.token, { to: other.user.id, content: "newest" });

    let list = (await conversations(buyer.token)).body;
    expect(list.total).toBe(3);
    expect(list.conversations.map((c) => c.otherUser.id)).toEqual([other.user.id, seller.user.id, seller.user.id]);
    await send(seller.token, { conversationId: direct.body.conversation.id, content: "bump" });
    list = (await conversations(buyer.token)).body;
    expect(list.conversations[0]).toMatchObject({ id: direct.body.conversation.id, unreadCount: 1, lastMessage: { content: "bump", from: seller.user.id } });
    expect((await api<ConvPage>("/api/chat/conversations?limit=1&page=2", { token: buyer.token })).body.conversations.map((c) => c.id)).toEqual([
      list.conversations[1]!.id,
    ]);
  });

  it("shows a conversation to its participants only", async () => {
    const a = await person();
    const b = await person();
    const stranger = await person();
    const { conversation } = (await send(a.token, { to: b.user.id, content: "private" })).body;
    expect((await history(stranger.token, conversation.id)).status).toBe(404);
    expect((await send(stranger.token, { conversationId: conversation.id, content: "let me in" })).status).toBe(404);
    expect((await api(`/api/chat/conversations/${conversation.id}/read`, { token: stranger.token, method: "POST" })).status).toBe(404);
    expect((await conversations(stranger.token)).body.total).toBe(0);
    expect((await history(a.token, "no-such-conversation")).status).toBe(404);
    expect((await api("/api/chat/conversations")).status).toBe(401);
  });

  it("refuses bad input with 400 (and unknown targets with 404)", async () => {
    const a = await person();
    const b = await person();
    const { conversation } = (await send(a.token, { to: b.user.id, content: "hi" })).body;
    const cases: [unknown, number, string?][] = [
      [{ to: b.user.id, content: "   " }, 400, "content"],
      [{ to: b.user.id, content: "x".repeat(5001) }, 400, "content"],
      [{ to: b.user.id }, 400, "content"],
      [{ to: b.user.id, content: 5 }, 400, "content"],
      [{ content: "to nobody" }, 400, "to"],
      [{ to: a.user.username, content: "me" }, 400, "to"],
      [{ conversationId: conversation.id, to: a.user.id, content: "wrong pair" }, 400, "to"],
      [{ to: "no_such_user_zz", content: "hi" }, 404],
      [{ to: b.user.id, productId: "no-such-product", content: "hi" }, 404],
    ];
    for (const [body, status, path] of cases) {
      const res = await api<{ code: string; errors?: { path: string }[] }>("/api/chat/messages", { token: a.token, json: body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      if (path)
        expect(
          res.body.errors?.map((e) => e.path),
          JSON.stringify(body).slice(0, 80),
        ).toContain(path);
    }
    expect((await api("/api/chat/messages", { token: a.token, body: "{nope", headers: { "content-type": "application/json" } })).status).toBe(400);
    expect((await send(a.token, { to: b.user.id, content: "x".repeat(5000) })).status).toBe(201);
    expect((await history(a.token, conversation.id, "?before=not-a-message")).status).toBe(400);
  });
});

describe("chat and AI accounts", () => {
  it("marks AI messages sentByAI and audits them as chat.send", async () => {
    const g = await createGuardianWithAi();
    const ai = await login(g.aiBuyer.username, g.aiPassword);
    const seller = await createSeller();
    const res = await send(ai, { to: seller.user.id, content: "I am an AI buyer agent" });
    expect(res.status).toBe(201);
    expect(res.body.message.sentByAI).toBe(true);
    const seen = await history(seller.token, res.body.conversation.id);
    expect(seen.body.messages[0]).toMatchObject({ sentByAI: true, from: g.aiBuyer.aiUserId });
    // Each side is named by the company it trades as: the agent by its guardian's store, the store by its own.
    expect((await conversations(seller.token)).body.conversations[0]!.otherUser).toEqual({
      id: g.aiBuyer.aiUserId,
      username: g.aiBuyer.username,
      companyName: "Guardian Co",
      isAI: true,
    });
    expect((await conversations(ai)).body.conversations[0]!.otherUser).toMatchObject({ id: seller.user.id, companyName: expect.stringMatching(/^Store /) });
    const logs = await api<{ logs: { action: string; success: boolean }[] }>(`/api/ai/audit-logs?aiUserId=${g.aiBuyer.aiUserId}&action=chat.send`, {
      token: g.guardianToken,
    });
    expect(logs.body.logs.some((l) => l.success)).toBe(true);
  });

  it("refuses self-trade with the guardian, the sibling and the guardian's products (403, audited)", async () => {
    const g = await createGuardianWithAi();
    const buyerAi = await login(g.aiBuyer.username, g.aiPassword);
    const sellerAi = await login(g.aiSeller.username, g.aiPassword);
    const guardianProduct = await createProduct(g.guardianToken, { keywords: ["x"] });
    const outsider = await person();
    const before = await refusals(g.guardianToken, g.aiBuyer.aiUserId);
    const refused = [
      { to: g.guardian.id, content: "hi guardian" },
      { to: g.guardian.username, content: "hi guardian" },
      { to: g.aiSeller.username, content: "hi sibling" },
      { to: outsider.user.id, productId: guardianProduct.id, content: "about my guardian's product" },
    ];
    for (const body of refused) {
      const res = await api<{ code: string }>("/api/chat/messages", { token: buyerAi, json: body });
      expect(res.status, JSON.stringify(body)).toBe(403);
      expect(res.body.code).toBe("self_trade_forbidden");
    }
    expect(await refusals(g.guardianToken, g.aiBuyer.aiUserId)).toBe(before + refused.length);
    expect((await api<{ code: string }>("/api/chat/messages", { token: sellerAi, json: { to: g.aiBuyer.aiUserId, content: "hi" } })).body.code).toBe(
      "self_trade_forbidden",
    );
    // A guardian starting a thread with its own agent does not let the agent answer in it.
    const thread = await send(g.guardianToken, { to: g.aiBuyer.aiUserId, content: "instructions" });
    expect(thread.status).toBe(201);
    expect(
      (await api<{ code: string }>("/api/chat/messages", { token: buyerAi, json: { conversationId: thread.body.conversation.id, content: "ok" } })).body.code,
    ).toBe("self_trade_forbidden");
    // An AI_SELLER speaks for its guardian's store: answering an outside buyer about it is its job.
    const asked = await send(outsider.token, { to: g.aiSeller.aiUserId, productId: guardianProduct.id, content: "price for 100?" });
    expect(asked.status).toBe(201);
    const answer = await send(sellerAi, { conversationId: asked.body.conversation.id, content: "9.50 each" });
    expect(answer.status).toBe(201);
    expect(answer.body.message.sentByAI).toBe(true);
  });

  it("needs chat.send to send and chat.read to read (403 permission_denied, audited)", async () => {
    const g = await createGuardianWithAi();
    const ai = await login(g.aiBuyer.username, g.aiPassword);
    const other = await person();
    const { conversation } = (await send(other.token, { to: g.aiBuyer.aiUserId, content: "hello agent" })).body;
    for (const permission of ["chat.send", "chat.read"]) {
      const flip = await api("/api/ai/permissions", {
        method: "PUT",
        token: g.guardianToken,
        json: { aiUserId: g.aiBuyer.aiUserId, permission, isAllowed: false },
      });
      expect(flip.status).toBe(200);
    }
    const before = await refusals(g.guardianToken, g.aiBuyer.aiUserId);
    const sent = await api<{ code: string; detail: string }>("/api/chat/messages", { token: ai, json: { conversationId: conversation.id, content: "reply" } });
    expect(sent.status).toBe(403);
    expect(sent.body).toMatchObject({ code: "permission_denied", detail: expect.stringContaining("chat.send") });
    expect(await refusals(g.guardianToken, g.aiBuyer.aiUserId)).toBe(before + 1);
    for (const res of [await history(ai, conversation.id), await conversations(ai), await history(ai, "no-such-conversation")]) {
      expect(res.status).toBe(403);
      expect((res.body as unknown as { code: string }).code).toBe("permission_denied");
    }
  });

  it("shows an AI account only its own conversations", async () => {
    const g = await createGuardianWithAi();
    const buyerAi = await login(g.aiBuyer.username, g.aiPassword);
    const sellerAi = await login(g.aiSeller.username, g.aiPassword);
    const buyerSide = await person();
    const sellerSide = await person();
    const mine = (await send(buyerAi, { to: sellerSide.user.id, content: "buyer agent talking" })).body.conversation;
    const siblings = (await send(buyerSide.token, { to: g.aiSeller.aiUserId, content: "to the seller agent" })).body.conversation;
    const guardians = (await send(buyerSide.token, { to: g.guardian.id, content: "to the guardian" })).body.conversation;
    expect((await conversations(buyerAi)).body.conversations.map((c) => c.id)).toEqual([mine.id]);
    expect((await conversations(sellerAi)).body.conversations.map((c) => c.id)).toEqual([siblings.id]);
    for (const id of [siblings.id, guardians.id]) expect((await history(buyerAi, id)).status).toBe(404);
    expect((await history(sellerAi, mine.id)).status).toBe(404);
  });
});
