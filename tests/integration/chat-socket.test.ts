import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { api, baseUrl, createUser, credentialsSignIn, login } from "../support/api";

function open(path = "/ws/chat", headers: Record<string, string> = {}) {
  const ws = new WebSocket(baseUrl().replace(/^http/, "ws") + path, { headers });
  const frames: Record<string, unknown>[] = [];
  ws.on("message", (d) => frames.push(JSON.parse(d.toString()) as Record<string, unknown>));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on("close", (code, reason) => resolve({ code, reason: reason.toString() })));
  const opened = new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  const next = async (type: string) => {
    for (let i = 0; i < 100; i++) {
      const f = frames.find((x) => x.type === type);
      if (f) return f;
      await new Promise((r) => setTimeout(r, 30));
    }
    throw new Error(`no ${type} frame; got ${JSON.stringify(frames)}`);
  };
  return { ws, frames, closed, opened, next };
}

describe("/ws/chat handshake", () => {
  it("answers an auth frame with a valid token with ready and the user id", async () => {
    const user = await createUser();
    const token = await login(user.username, user.password);
    const s = open();
    await s.opened;
    s.ws.send(JSON.stringify({ type: "auth", token }));
    expect(await s.next("ready")).toEqual({ type: "ready", userId: user.id });
    // Broken frames get an error frame and the socket stays open.
    s.ws.send("{not json");
    expect(await s.next("error")).toMatchObject({ code: "bad_frame" });
    s.ws.send("x".repeat(70 * 1024));
    s.ws.send(JSON.stringify({ type: "message", to: "someone", content: "y".repeat(2 * 1024 * 1024) }));
    for (let i = 0; i < 100 && s.frames.filter((f) => f.code === "frame_too_large").length < 2; i++) await new Promise((r) => setTimeout(r, 50));
    expect(s.frames.filter((f) => f.code === "frame_too_large")).toHaveLength(2);
    expect(s.ws.readyState).toBe(WebSocket.OPEN);
    // Logging out revokes the session and closes its sockets with 4401.
    await api("/api/auth/logout", { token, method: "POST" });
    expect((await s.closed).code).toBe(4401);
  });

  it("authenticates from the session cookie on the upgrade", async () => {
    const user = await createUser();
    const { sessionCookie } = await credentialsSignIn(user.username, user.password);
    const s = open("/ws/chat", { cookie: sessionCookie! });
    expect(await s.next("ready")).toEqual({ type: "ready", userId: user.id });
    s.ws.close();
  });

  it("closes with 4401 on a bad token and when no auth frame arrives in time", async () => {
    const bad = open();
    await bad.opened;
    bad.ws.send(JSON.stringify({ type: "auth", token: "not-a-token" }));
    expect((await bad.closed).code).toBe(4401);

    const silent = open();
    await silent.opened;
    const t0 = Date.now();
    expect((await silent.closed).code).toBe(4401);
    expect(Date.now() - t0).toBeGreaterThan(1000);
  });

  it("drops upgrades on other paths", async () => {
    const other = open("/ws/other");
    await expect(other.opened).rejects.toThrow();
  });
});
