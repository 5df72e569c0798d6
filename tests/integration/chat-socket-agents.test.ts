// The chat socket as an agent uses it (contract 9.5): an API key in the auth frame authenticates as
// a Bearer token does, and a frame's `clientId` comes back in its ack or error.
import { describe, expect, it } from "vitest";
import { api, createGuardianWithAi, createUser, login, unique } from "../support/api";
import { createApiKey } from "../support/mcp";
import { chatSocket } from "../support/ws";

async function account() {
  const user = await createUser();
  const token = await login(user.username, user.password);
  return { user, token };
}

describe("/ws/chat with an API key", () => {
  it("authenticates a buyer's key in `token` or `apiKey`, refuses a bad or revoked one with 4401", async () => {
    const { user, token } = await account();
    const key = await createApiKey(token, "socket agent");

    const s = await chatSocket(null);
    s.send({ type: "auth", token: key.secret, clientId: "hello-1" });
    expect(await s.waitFor("ready")).toEqual({ type: "ready", userId: user.id, clientId: "hello-1" });

    const other = await chatSocket(null);
    other.send({ type: "auth", apiKey: key.secret });
    expect(await other.waitFor("ready")).toEqual({ type: "ready", userId: user.id });

    for (const frame of [
      { type: "auth", apiKey: `${key.secret.slice(0, -2)}xx` },
      { type: "auth", token: "etk_not-a-key" },
      { type: "auth", apiKey: 42 },
    ]) {
      const bad = await chatSocket(null);
      bad.send(frame);
      expect((await bad.closed).code).toBe(4401);
    }

    // Revoking the key closes the sockets it opened, and it opens no more.
    expect((await api(`/api/keys/${key.id}`, { token, method: "DELETE" })).status).toBe(200);
    expect((await s.closed).code).toBe(4401);
    expect((await other.closed).code).toBe(4401);
    const after = await chatSocket(null);
    after.send({ type: "auth", apiKey: key.secret });
    expect((await after.closed).code).toBe(4401);
  });

  it("lets an AI account's key chat under its permissions, audited for its guardian", async () => {
    const g = await createGuardianWithAi();
    const aiToken = await login(g.aiBuyer.username, g.aiPassword);
    const key = await createApiKey(aiToken, "ai socket");
    const { user: peer, token: peerToken } = await account();
    const peerSocket = await chatSocket(peerToken);

    const s = await chatSocket(null);
    s.send({ type: "auth", apiKey: key.secret });
    expect(await s.waitFor("ready")).toMatchObject({ userId: g.aiBuyer.aiUserId });
    s.send({ type: "message", to: peer.id, content: "from the agent's key", clientId: "m-1" });
    const ack = await s.waitFor("ack");
    expect(ack).toMatchObject({ clientId: "m-1", conversationId: expect.any(String) });
    expect(await peerSocket.waitFor("message")).toMatchObject({ id: ack.id, from: g.aiBuyer.aiUserId, sentByAI: true });

    const logs = async (action: string) =>
      (
        await api<{ logs: { success: boolean; details: string }[] }>(`/api/ai/audit-logs?aiUserId=${g.aiBuyer.aiUserId}&action=${action}`, {
          token: g.guardianToken,
        })
      ).body.logs;
    expect((await logs("chat.read")).filter((l) => l.details === "chat socket opened" && l.success)).toHaveLength(1);
    expect((await logs("chat.send")).filter((l) => l.details.includes(String(ack.id)))).toHaveLength(1);

    // The guardian withdraws chat.send: the key's socket meets the new rule on its next message.
    const denied = await api("/api/ai/permissions", {
      token: g.guardianToken,
      method: "PUT",
      json: { aiUserId: g.aiBuyer.aiUserId, permission: "chat.send", isAllowed: false },
    });
    expect(denied.status).toBe(200);
    s.send({ type: "message", to: peer.id, content: "not allowed now", clientId: "m-2" });
    expect(await s.waitFor((f) => f.type === "error" && f.clientId === "m-2")).toMatchObject({ code: "permission_denied" });
    s.close();
    peerSocket.close();
  });
});

describe("/ws/chat clientId", () => {
  it("echoes clientId on acks and errors, and refuses a bad one without handling the frame", async () => {
    const { token } = await account();
    const { user: peer, token: peerToken } = await account();
    const s = await chatSocket(token);

    s.send({ type: "message", to: peer.id, content: "first", clientId: "a" });
    const first = await s.waitFor((f) => f.type === "ack" && f.clientId === "a");
    s.send({ type: "message", to: unique("nobody_"), content: "lost", clientId: "b" });
    expect(await s.waitFor((f) => f.type === "error" && f.clientId === "b")).toMatchObject({ code: "not_found" });
    s.send({ type: "message", to: peer.id, clientId: "c" });
    expect(await s.waitFor((f) => f.type === "error" && f.clientId === "c")).toMatchObject({ code: "validation_failed" });
    s.send({ type: "typing", clientId: "d" });
    expect(await s.waitFor((f) => f.type === "error" && f.clientId === "d")).toMatchObject({ code: "unsupported" });
    const sixtyFour = "x".repeat(64);
    s.send({ type: "message", to: peer.id, content: "longest id", clientId: sixtyFour });
    await s.waitFor((f) => f.type === "ack" && f.clientId === sixtyFour);

    for (const clientId of ["y".repeat(65), 7, null, ["z"]]) {
      const before = s.all("error").length;
      s.send({ type: "message", to: peer.id, content: "must not be stored", clientId });
      await s.waitFor(() => s.all("error").length > before);
      const err = s.all("error")[before]!;
      expect(err).toMatchObject({ code: "validation_failed", errors: [{ path: "clientId" }] });
      expect(err).not.toHaveProperty("clientId");
    }
    // Nothing of the refused frames was stored: the conversation holds only what was acknowledged.
    s.send({ type: "message", to: peer.id, content: "last", clientId: "e" });
    await s.waitFor((f) => f.type === "ack" && f.clientId === "e");
    expect(s.all("ack")).toHaveLength(3);
    const history = await api<{ messages: { content: string }[] }>(`/api/chat/messages/${String(first.conversationId)}`, { token: peerToken });
    expect(history.status).toBe(200);
    expect(history.body.messages.map((m) => m.content).sort()).toEqual(["first", "last", "longest id"]);
    s.close();
  });
});
