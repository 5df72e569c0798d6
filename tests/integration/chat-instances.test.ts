// Two app instances on one PostgreSQL (contract 8): chat deliveries and session revocations cross
// between them through LISTEN/NOTIFY, and nobody gets a message twice.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, baseUrl, createGuardianWithAi, createUser, login } from "../support/api";
import { startServer, type RunningServer } from "../support/server";
import { chatSocket, sleep } from "../support/ws";

async function person() {
  const user = await createUser();
  return { user, token: await login(user.username, user.password) };
}

describe.runIf(inject("dbKind") === "postgres")("chat across instances", () => {
  let other: RunningServer;
  beforeAll(async () => {
    // Same database and the same AUTH_SECRET (the first server generated its own into its data
    // directory): a token from either instance works on both, as behind a load balancer.
    const secretFile = path.join(inject("dataDir"), "auth-secret");
    const AUTH_SECRET = existsSync(secretFile) ? readFileSync(secretFile, "utf8").trim() : process.env.AUTH_SECRET;
    other = await startServer({ DATABASE_URL: process.env.DATABASE_URL, AUTH_SECRET });
  }, 120_000);
  afterAll(async () => {
    await other?.stop("SIGTERM");
  });

  it("delivers a message sent on one instance to sockets on both, once each", async () => {
    const sender = await person();
    const recipient = await person();
    const onB = { base: other.url };
    const [senderA, senderB, recipientB1, recipientB2, recipientA] = await Promise.all([
      chatSocket(sender.token),
      chatSocket(sender.token, onB),
      chatSocket(recipient.token, onB),
      chatSocket(recipient.token, onB),
      chatSocket(recipient.token),
    ]);
    senderA.send({ type: "message", to: recipient.user.id, content: "from instance A" });
    const ack = await senderA.waitFor("ack");
    for (const s of [recipientB1, recipientB2, recipientA, senderB]) {
      expect(await s.waitFor("message")).toMatchObject({ id: ack.id, from: sender.user.id, content: "from instance A" });
    }

    // A message too large for a NOTIFY payload travels by id and B loads it; REST on B reaches A.
    const big = "界".repeat(4000);
    const viaA = await api<{ message: { id: string } }>("/api/chat/messages", { token: sender.token, json: { to: recipient.user.id, content: big } });
    expect(viaA.status).toBe(201);
    const rest = await fetch(`${other.url}/api/chat/messages`, {
      method: "POST",
      headers: { authorization: `Bearer ${sender.token}`, "content-type": "application/json" },
      body: JSON.stringify({ to: recipient.user.id, content: "REST on instance B" }),
    });
    expect(rest.status).toBe(201);
    const restId = ((await rest.json()) as { message: { id: string } }).message.id;
    expect((await recipientA.waitFor((f) => f.id === restId)).content).toBe("REST on instance B");
    expect((await recipientB1.waitFor((f) => f.id === viaA.body.message.id)).content).toBe(big);

    await sleep(300);
    for (const s of [recipientB1, recipientB2, recipientA, senderB]) expect(s.all("message")).toHaveLength(3);
    expect(senderA.all("message")).toHaveLength(2);
    for (const s of [senderA, senderB, recipientB1, recipientB2, recipientA]) s.close();
  });

  it("closes sockets on the other instance when their session ends", async () => {
    const u = await person();
    const s = await chatSocket(u.token, { base: other.url });
    expect(baseUrl()).not.toBe(other.url);
    expect((await api("/api/auth/logout", { token: u.token, method: "POST" })).status).toBe(200);
    expect((await s.closed).code).toBe(4401);

    // Disabling an AI account ends all its sessions, wherever their sockets are.
    const g = await createGuardianWithAi();
    const ai = await login(g.aiBuyer.username, g.aiPassword);
    const aiSocket = await chatSocket(ai, { base: other.url });
    await api(`/api/ai/accounts?aiUserId=${g.aiBuyer.aiUserId}`, { method: "DELETE", token: g.guardianToken });
    expect((await aiSocket.closed).code).toBe(4401);
  });
});
