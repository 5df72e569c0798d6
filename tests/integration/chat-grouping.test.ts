// Chat under group commit: many sockets sending at once, so messages share transactions. Every
// message is acked once and delivered once, in ack order per conversation, and the history is what
// was delivered; a bad message in a busy group is refused alone; AI senders keep one audit row per
// message in a valid chain; a permission the guardian takes away counts from the next frame on.
import { describe, expect, it } from "vitest";
import { api, createGuardianWithAi, createUser, login } from "../support/api";
import { chatSocket, type ChatSocket, type Frame } from "../support/ws";

async function person() {
  const user = await createUser();
  return { user, token: await login(user.username, user.password) };
}

type Msg = {
  id: string;
  conversationId: string;
  from: string;
  to: string;
  content: string;
};

const history = async (token: string, conversationId: string) =>
  (await api<{ messages: Msg[]; total: number }>(`/api/chat/messages/${conversationId}?limit=100`, { token })).body;

/** Wait until `s` holds `n` answers (acks and errors) to message frames. */
const answers = async (s: ChatSocket, n: number) => {
  await s.waitFor(() => s.frames.filter((f) => f.type === "ack" || (f.type === "error" && f.ref !== undefined)).length >= n, 30_000);
  return s.frames.filter((f) => f.type === "ack" || f.type === "error");
};

const PER_SENDER = 20; // the flood limit's burst per account

describe("chat group commit", () => {
  it("20 senders at once: each message acked once, delivered once, in ack order, and stored as delivered", async () => {
    const pairs = await Promise.all(
      Array.from({ length: 10 }, async () => ({
        a: await person(),
        b: await person(),
      })),
    );
    // a's first message opens the conversation; then both sides and an observer socket of a.
    const sockets = await Promise.all(
      pairs.map(async ({ a, b }) => ({
        a1: await chatSocket(a.token),
        a2: await chatSocket(a.token),
        b1: await chatSocket(b.token),
      })),
    );
    const opened = await Promise.all(
      pairs.map(({ a, b }) =>
        api<{ message: Msg }>("/api/chat/messages", {
          token: a.token,
          json: { to: b.user.id, content: "open" },
        }),
      ),
    );
    const conversations = opened.map((o) => o.body.message.conversationId);
    for (const s of sockets) await s.a2.waitFor("message");

    // Everything is sent before anything is awaited: 400 messages from 20 sockets.
    sockets.forEach((s, k) => {
      for (let i = 0; i < PER_SENDER; i++) {
        s.a1.send({
          type: "message",
          conversationId: conversations[k],
          content: `a${k}-${i}`,
          ref: `a${i}`,
        });
        s.b1.send({
          type: "message",
          to: pairs[k]!.a.user.username,
          conversationId: conversations[k],
          content: `b${k}-${i}`,
          ref: `b${i}`,
        });
      }
    });

    for (const [k, s] of sockets.entries()) {
      const aAnswers = await answers(s.a1, PER_SENDER);
      const bAnswers = await answers(s.b1, PER_SENDER);
      // Acked once each, answers in the order the frames were sent.
      expect(aAnswers.map((f) => [f.type, f.ref])).toEqual(Array.from({ length: PER_SENDER }, (_, i) => ["ack", `a${i}`]));
      expect(bAnswers.map((f) => [f.type, f.ref])).toEqual(Array.from({ length: PER_SENDER }, (_, i) => ["ack", `b${i}`]));
      const aIds = aAnswers.map((f) => f.id);
      const bIds = bAnswers.map((f) => f.id);

      // Each side receives exactly the other side's acked messages, in ack order.
      // (The opening message, sent over REST, reached every socket of both.)
      const openId = opened[k]!.body.message.id;
      await s.b1.waitFor(() => s.b1.all("message").length >= 1 + PER_SENDER);
      await s.a1.waitFor(() => s.a1.all("message").length >= 1 + PER_SENDER);
      await s.a2.waitFor(() => s.a2.all("message").length >= 1 + 2 * PER_SENDER, 15_000);
      expect(s.b1.all("message").map((f) => f.id)).toEqual([openId, ...aIds]);
      expect(s.a1.all("message").map((f) => f.id)).toEqual([openId, ...bIds]);

      // The history is what the observer saw, message for message and in the same order; ids and
      // stored times agree on that order.
      const h = await history(pairs[k]!.a.token, conversations[k]!);
      const seen = s.a2.all("message").map(({ type: _t, ...m }) => m);
      expect(h.total).toBe(1 + 2 * PER_SENDER);
      expect(h.messages).toEqual(seen);
      expect(h.messages.map((m) => m.id)).toEqual([...h.messages.map((m) => m.id)].sort());
      expect(h.messages.filter((m) => m.from === pairs[k]!.a.user.id).map((m) => m.id)).toEqual([openId, ...aIds]);
      expect(h.messages.filter((m) => m.from === pairs[k]!.b.user.id).map((m) => m.id)).toEqual(bIds);
      expect(h.messages.filter((m) => m.from === pairs[k]!.b.user.id).map((m) => m.content)).toEqual(
        Array.from({ length: PER_SENDER }, (_, i) => `b${k}-${i}`),
      );
    }
    // Nobody got a copy twice.
    for (const s of sockets) expect(new Set(s.a2.all("message").map((f) => f.id)).size).toBe(1 + 2 * PER_SENDER);
    for (const s of sockets) for (const x of [s.a1, s.a2, s.b1]) x.close();
  }, 120_000);

  it("refuses a bad message in a busy group on its own and stores its neighbours", async () => {
    const a = await person();
    const b = await person();
    const others = await Promise.all(
      Array.from({ length: 6 }, async () => ({
        from: await person(),
        to: await person(),
      })),
    );
    const s = await chatSocket(a.token);
    const noise = await Promise.all(others.map((o) => chatSocket(o.from.token)));
    const frames: [string, Record<string, unknown>, string | null][] = [
      ["ok0", { to: b.user.id, content: "first" }, null],
      ["bad-conversation", { conversationId: "no-such-conversation", content: "lost" }, "not_found"],
      ["ok1", { to: b.user.username, content: "second" }, null],
      ["self", { to: a.user.id, content: "to me" }, "validation_failed"],
      ["ok2", { to: b.user.id, content: "third" }, null],
      ["empty", { to: b.user.id, content: "   " }, "validation_failed"],
      ["nobody", { to: "no_such_user_zz9", content: "hello?" }, "not_found"],
      ["ok3", { to: b.user.id, content: "fourth" }, null],
    ];
    for (let i = 0; i < 10; i++)
      noise.forEach((n, j) =>
        n.send({
          type: "message",
          to: others[j]!.to.user.id,
          content: `noise ${i}`,
        }),
      );
    for (const [ref, f] of frames) s.send({ type: "message", ...f, ref });
    for (let i = 0; i < 10; i++)
      noise.forEach((n, j) =>
        n.send({
          type: "message",
          to: others[j]!.to.user.id,
          content: `more noise ${i}`,
        }),
      );

    const got = await answers(s, frames.length);
    expect(got.map((f) => [f.ref, f.type === "ack" ? null : f.code])).toEqual(frames.map(([ref, , code]) => [ref, code]));
    const acked = got.filter((f) => f.type === "ack");
    const h = await history(a.token, String(acked[0]!.conversationId));
    expect(h.messages.map((m) => m.content)).toEqual(["first", "second", "third", "fourth"]);
    expect(h.messages.map((m) => m.id)).toEqual(acked.map((f) => f.id));
    for (const n of noise) await answers(n, 20);
    for (const n of noise) expect(n.all("ack")).toHaveLength(20);
    for (const x of [s, ...noise]) x.close();
  }, 60_000);

  it("writes one audit row per message of an AI sender, in a valid chain, with its refusals", async () => {
    const g = await createGuardianWithAi();
    const ai = await login(g.aiBuyer.username, g.aiPassword);
    const other = await person();
    const [s, noise] = await Promise.all([chatSocket(ai), chatSocket(other.token)]);
    const peer = await person();
    for (let i = 0; i < 15; i++) {
      s.send({
        type: "message",
        to: i === 7 ? g.guardian.id : other.user.id,
        content: `agent ${i}`,
        ref: `r${i}`,
      });
      noise.send({ type: "message", to: peer.user.id, content: `noise ${i}` });
    }
    const got = await answers(s, 15);
    expect(got.map((f) => f.type)).toEqual(Array.from({ length: 15 }, (_, i) => (i === 7 ? "error" : "ack")));
    expect(got[7]).toMatchObject({ code: "self_trade_forbidden", ref: "r7" });

    const page = (
      await api<{
        logs: {
          seq: number;
          action: string;
          success: boolean;
          details: string;
        }[];
        chainValid: boolean;
      }>(`/api/ai/audit-logs?aiUserId=${g.aiBuyer.aiUserId}&action=chat.send&limit=100`, { token: g.guardianToken })
    ).body;
    expect(page.chainValid).toBe(true);
    // Oldest first: one row per frame, in the order the frames were sent.
    const rows = [...page.logs].sort((x, y) => x.seq - y.seq);
    expect(rows.map((r) => (r.success ? r.details : r.details.split(":")[0]))).toEqual(
      got.map((f: Frame) => (f.type === "ack" ? `WS /ws/chat message ${String(f.id)} in conversation ${String(f.conversationId)}` : "self_trade_forbidden")),
    );
    s.close();
    noise.close();
  }, 60_000);

  it("refuses an AI account's messages from the frame after its guardian turns chat.send off, and accepts them again after, on the same socket", async () => {
    const g = await createGuardianWithAi();
    const ai = await login(g.aiSeller.username, g.aiPassword);
    const other = await person();
    const s = await chatSocket(ai);
    const setSend = (isAllowed: boolean) =>
      api("/api/ai/permissions", {
        method: "PUT",
        token: g.guardianToken,
        json: {
          aiUserId: g.aiSeller.aiUserId,
          permission: "chat.send",
          isAllowed,
        },
      });
    for (let i = 0; i < 4; i++)
      s.send({
        type: "message",
        to: other.user.id,
        content: `before ${i}`,
        ref: `before${i}`,
      });
    await answers(s, 4);
    expect((await setSend(false)).status).toBe(200);
    for (let i = 0; i < 4; i++)
      s.send({
        type: "message",
        to: other.user.id,
        content: `during ${i}`,
        ref: `during${i}`,
      });
    await answers(s, 8);
    expect(s.all("ack").map((f) => f.ref)).toEqual(["before0", "before1", "before2", "before3"]);
    expect(s.all("error").map((f) => [f.ref, f.code])).toEqual([0, 1, 2, 3].map((i) => [`during${i}`, "permission_denied"]));
    expect((await setSend(true)).status).toBe(200);
    s.send({
      type: "message",
      to: other.user.id,
      content: "after",
      ref: "after",
    });
    expect(await s.waitFor((f) => f.ref === "after")).toMatchObject({
      type: "ack",
    });
    s.close();
  }, 60_000);
});
