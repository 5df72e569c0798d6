// Chat on /ws/chat: delivery to every socket of the recipient, ack and echo for the sender, REST
// sends delivered live, error frames that keep the socket open, flood limits, AI rules.
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { api, createGuardianWithAi, createUser, login } from "../support/api";
import { chatSocket, sleep } from "../support/ws";

async function person() {
  const user = await createUser();
  return { user, token: await login(user.username, user.password) };
}

type Msg = { id: string; conversationId: string; from: string; content: string; sentByAI: boolean; createdAt: string };

describe("chat on the socket", () => {
  it("delivers to every socket of the recipient, acks the sender and echoes to the sender's other sockets", async () => {
    const a = await person();
    const b = await person();
    const [a1, a2, b1, b2] = await Promise.all([chatSocket(a.token), chatSocket(a.token), chatSocket(b.token), chatSocket(b.token)]);
    a1.send({ type: "message", to: b.user.username, content: "first over the socket", ref: "r1" });
    const ack = await a1.waitFor("ack");
    expect(ack).toMatchObject({ type: "ack", id: expect.any(String), conversationId: expect.any(String), ref: "r1" });
    const expected = {
      type: "message",
      id: ack.id,
      conversationId: ack.conversationId,
      from: a.user.id,
      to: b.user.id,
      content: "first over the socket",
      sentByAI: false,
    };
    for (const s of [b1, b2, a2]) expect(await s.waitFor("message")).toMatchObject(expected);
    expect(typeof (await b1.waitFor("message")).createdAt).toBe("string");

    for (let i = 0; i < 5; i++) a1.send({ type: "message", to: b.user.id, conversationId: ack.conversationId, content: `n${i}` });
    b2.send({ type: "message", conversationId: ack.conversationId, content: "reply from b2" });
    await b1.waitFor((f) => f.content === "reply from b2");
    await b1.waitFor((f) => f.content === "n4");
    await sleep(200);
    // Nobody got a copy twice; the sending socket got acks and no echo of its own messages.
    expect(b1.all("message")).toHaveLength(7);
    expect(b2.all("message")).toHaveLength(6);
    expect(a1.all("ack")).toHaveLength(6);
    expect(a1.all("message").map((f) => f.content)).toEqual(["reply from b2"]);
    expect(a2.all("message")).toHaveLength(7);

    // History over REST is what the socket delivered, in the order it was sent per socket.
    const history = await api<{ messages: Msg[] }>(`/api/chat/messages/${String(ack.conversationId)}?limit=100`, { token: b.token });
    const delivered = b1.all("message").map(({ type: _t, ...m }) => m);
    expect(history.body.messages).toHaveLength(7);
    expect([...history.body.messages].sort(byId)).toEqual([...delivered].sort(byId));
    expect(history.body.messages.filter((m) => m.from === a.user.id).map((m) => m.content)).toEqual(["first over the socket", "n0", "n1", "n2", "n3", "n4"]);
    for (const s of [a1, a2, b1, b2]) s.close();
  });

  it("delivers a message sent over REST to the recipient's and the sender's sockets", async () => {
    const a = await person();
    const b = await person();
    const [aSock, bSock] = await Promise.all([chatSocket(a.token), chatSocket(b.token)]);
    const sent = await api<{ message: Msg }>("/api/chat/messages", { token: a.token, json: { to: b.user.id, content: "via REST" } });
    expect(sent.status).toBe(201);
    expect(await bSock.waitFor("message")).toEqual({ type: "message", to: b.user.id, ...sent.body.message });
    expect(await aSock.waitFor("message")).toMatchObject({ id: sent.body.message.id });
    // Larger than a NOTIFY payload can carry: the receiving side loads it from the database.
    const big = "漢".repeat(5000);
    const large = await api<{ message: Msg }>("/api/chat/messages", { token: a.token, json: { to: b.user.id, content: big } });
    expect(large.status).toBe(201);
    expect((await bSock.waitFor((f) => f.id === large.body.message.id)).content).toBe(big);
    aSock.close();
    bSock.close();
  });

  it("answers bad frames with error frames and keeps the socket open", async () => {
    const a = await person();
    const b = await person();
    const s = await chatSocket(a.token);
    const errorFor = async (frame: unknown, ref: string) => {
      s.send(typeof frame === "string" ? frame : { ...(frame as object), ref });
      return s.waitFor((f) => f.type === "error" && (f.ref === ref || typeof frame === "string"));
    };
    expect(await errorFor({ type: "message", to: b.user.id, content: "   " }, "e1")).toMatchObject({
      code: "validation_failed",
      message: expect.stringContaining("content"),
    });
    expect(await errorFor({ type: "message", to: b.user.id, content: "x".repeat(5001) }, "e2")).toMatchObject({ code: "validation_failed" });
    expect(await errorFor({ type: "message", content: "to nobody" }, "e3")).toMatchObject({ code: "validation_failed" });
    expect(await errorFor({ type: "message", to: a.user.id, content: "me" }, "e4")).toMatchObject({ code: "validation_failed" });
    // U+0000 cannot be stored: refused like on the REST route, not a database error.
    expect(await errorFor({ type: "message", to: b.user.id, content: "nul \u0000 here" }, "e4n")).toMatchObject({
      code: "validation_failed",
      message: expect.stringContaining("U+0000"),
    });
    expect(await errorFor({ type: "message", to: "no_such_user_zz", content: "hi" }, "e5")).toMatchObject({ code: "not_found" });
    expect(await errorFor({ type: "message", conversationId: "no-such-conversation", to: b.user.id, content: "hi" }, "e6")).toMatchObject({
      code: "not_found",
    });
    expect(await errorFor({ type: "dance" }, "e7")).toMatchObject({ code: "unsupported" });
    s.frames.length = 0;
    s.send("[1,2]");
    expect(await s.waitFor("error")).toMatchObject({ code: "bad_frame" });
    s.send({ type: "ping" });
    await s.waitFor("pong");
    expect(s.ws.readyState).toBe(WebSocket.OPEN);
    s.send({ type: "message", to: b.user.id, content: "still works" });
    await s.waitFor("ack");
    s.close();
  });

  it("rate-limits floods with an error frame and keeps the socket open", async () => {
    const a = await person();
    const b = await person();
    const s = await chatSocket(a.token);
    for (let i = 0; i < 30; i++) s.send({ type: "message", to: b.user.id, content: `flood ${i}` });
    await s.waitFor((f) => f.type === "error" && f.code === "rate_limited", 15_000);
    await s.waitFor(() => s.all("ack").length + s.all("error").length === 30, 15_000);
    expect(s.all("ack").length).toBeGreaterThanOrEqual(20);
    expect(s.all("ack").length).toBeLessThan(30);
    expect(s.all("error").every((f) => f.code === "rate_limited" && typeof f.retryAfterMs === "number")).toBe(true);
    expect(s.ws.readyState).toBe(WebSocket.OPEN);
    s.close();
  });

  it("applies AI rules on the socket: sentByAI, self-trade and permissions, all audited", async () => {
    const g = await createGuardianWithAi();
    const ai = await login(g.aiBuyer.username, g.aiPassword);
    const other = await person();
    const [s, o] = await Promise.all([chatSocket(ai), chatSocket(other.token)]);
    s.send({ type: "message", to: other.user.id, content: "agent here", ref: "ok" });
    await s.waitFor("ack");
    expect(await o.waitFor("message")).toMatchObject({ from: g.aiBuyer.aiUserId, sentByAI: true });
    s.send({ type: "message", to: g.guardian.id, content: "hi guardian", ref: "self" });
    expect(await s.waitFor((f) => f.ref === "self")).toMatchObject({ type: "error", code: "self_trade_forbidden" });
    await api("/api/ai/permissions", {
      method: "PUT",
      token: g.guardianToken,
      json: { aiUserId: g.aiBuyer.aiUserId, permission: "chat.send", isAllowed: false },
    });
    s.send({ type: "message", to: other.user.id, content: "no longer allowed", ref: "perm" });
    expect(await s.waitFor((f) => f.ref === "perm")).toMatchObject({ type: "error", code: "permission_denied", message: expect.stringContaining("chat.send") });
    expect(s.ws.readyState).toBe(WebSocket.OPEN);

    const logs = (
      await api<{ logs: { action: string; success: boolean; details: string }[] }>(`/api/ai/audit-logs?aiUserId=${g.aiBuyer.aiUserId}&action=chat.send`, {
        token: g.guardianToken,
      })
    ).body.logs;
    expect(logs.filter((l) => l.success && l.details.includes("WS /ws/chat"))).toHaveLength(1);
    expect(
      logs
        .filter((l) => !l.success)
        .map((l) => l.details.split(":")[0])
        .sort(),
    ).toEqual(["permission_denied", "self_trade_forbidden"]);
    s.close();
    o.close();
  });

  it("delivers to an AI account only while it holds chat.read, switching on an open socket at once, and audits the opening", async () => {
    const g = await createGuardianWithAi();
    const ai = await login(g.aiBuyer.username, g.aiPassword);
    const other = await person();
    const setRead = (isAllowed: boolean) =>
      api("/api/ai/permissions", { method: "PUT", token: g.guardianToken, json: { aiUserId: g.aiBuyer.aiUserId, permission: "chat.read", isAllowed } });
    const say = async (content: string) =>
      expect((await api("/api/chat/messages", { token: other.token, json: { to: g.aiBuyer.aiUserId, content } })).status).toBe(201);
    const s = await chatSocket(ai);
    await say("while allowed");
    expect(await s.waitFor("message")).toMatchObject({ content: "while allowed" });

    expect((await setRead(false)).status).toBe(200);
    expect(await s.waitFor((f) => f.type === "error" && f.code === "permission_denied")).toMatchObject({ message: expect.stringContaining("chat.read") });
    await say("while refused");
    // Sending stays allowed (chat.send): its own message's ack comes, the refused delivery never does.
    s.send({ type: "message", to: other.user.id, content: "agent still sends", ref: "send" });
    await s.waitFor("ack");
    await sleep(300);
    expect(s.all("message").map((f) => f.content)).toEqual(["while allowed"]);

    // A socket opened while refused says so and gets nothing.
    const late = await chatSocket(ai);
    expect(await late.waitFor((f) => f.type === "error")).toMatchObject({ code: "permission_denied" });

    expect((await setRead(true)).status).toBe(200);
    await sleep(200);
    await say("allowed again");
    expect(await s.waitFor((f) => f.content === "allowed again")).toMatchObject({ type: "message" });
    expect(await late.waitFor((f) => f.content === "allowed again")).toMatchObject({ type: "message" });
    expect(s.all("message").map((f) => f.content)).toEqual(["while allowed", "allowed again"]);

    const logs = (
      await api<{ logs: { action: string; success: boolean; details: string }[] }>(`/api/ai/audit-logs?aiUserId=${g.aiBuyer.aiUserId}&action=chat.read`, {
        token: g.guardianToken,
      })
    ).body.logs;
    expect(logs.filter((l) => l.details === "chat socket opened" && l.success)).toHaveLength(1);
    expect(logs.filter((l) => !l.success && l.details.startsWith("permission_denied"))).toHaveLength(1);
    s.close();
    late.close();
  });

  it("closes the sockets of a disabled AI account with 4401", async () => {
    const g = await createGuardianWithAi();
    const ai = await login(g.aiSeller.username, g.aiPassword);
    const s = await chatSocket(ai);
    await api(`/api/ai/accounts?aiUserId=${g.aiSeller.aiUserId}`, { method: "DELETE", token: g.guardianToken });
    expect((await s.closed).code).toBe(4401);
  });
});

const byId = (x: Record<string, unknown>, y: Record<string, unknown>) => String(x.id).localeCompare(String(y.id));
