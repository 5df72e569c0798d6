import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { encodeFrame, rawSocket, type RawSocket } from "../support/rawws";
import { startServer, type RunningServer } from "../support/server";

// Attacks on /ws/chat (issue #7, point 6), on a server of this file's own: short auth and ping
// intervals, and no other test's traffic on it while latency is measured.
const AUTH_TIMEOUT_MS = 1000;
// Long enough that a loaded machine's pauses in this test process do not cost a healthy client
// its connection, short enough to see dead peers cut within seconds.
const PING_INTERVAL_MS = 2000;
const FRAME_BURST = 100;
/** Quiet and attacked blocks of the latency test (a flooding account each). */
const ROUNDS = 6;
const MiB = 1024 * 1024;
let server: RunningServer;

beforeAll(async () => {
  server = await startServer(
    {
      DATABASE_URL: process.env.DATABASE_URL ?? "",
      WS_AUTH_TIMEOUT_MS: String(AUTH_TIMEOUT_MS),
      WS_PING_INTERVAL_MS: String(PING_INTERVAL_MS),
      WS_ALLOWED_ORIGINS: "https://app.example.test, https://other.example.test",
    },
    { timeoutMs: 200_000 },
  );
}, 240_000);

afterAll(async () => {
  await server?.stop();
});

const post = (path: string, body: unknown, token?: string) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });

type Person = { id: string; username: string; password: string; token: string };
async function person(): Promise<Person> {
  const username = `wa_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const password = "long-enough-1";
  const created = await post("/api/accounts/create", { email: `${username}@example.test`, username, password, role: "BUYER" });
  expect(created.status).toBe(201);
  const login = (await (await post("/api/auth/login", { email: username, password })).json()) as { token: string; user: { id: string } };
  return { id: login.user.id, username, password, token: login.token };
}

/** A well-behaved client (the ws library: answers pings, completes closes), authenticated. */
async function client(token: string, opts: { autoPong?: boolean } = {}) {
  const ws = new WebSocket(`${server.url.replace(/^http/, "ws")}/ws/chat`, { autoPong: opts.autoPong ?? true });
  const closed = new Promise<number>((resolve) => ws.on("close", (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  const ready = next(ws, (f) => f.type === "ready");
  ws.send(JSON.stringify({ type: "auth", token }));
  await ready;
  return { ws, closed };
}

/** The next frame matching, event-driven (no polling: latencies of a few ms are measured with it). */
function next(ws: WebSocket, pred: (f: Record<string, unknown>) => boolean, timeoutMs = 10_000): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      ws.off("message", onMessage);
      reject(new Error(`no matching frame within ${timeoutMs} ms`));
    }, timeoutMs);
    const onMessage = (d: WebSocket.RawData) => {
      const f = JSON.parse(d.toString()) as Record<string, unknown>;
      if (!pred(f)) return;
      clearTimeout(timer);
      ws.off("message", onMessage);
      resolve(f);
    };
    ws.on("message", onMessage);
  });
}

async function authenticatedRaw(token: string): Promise<RawSocket> {
  const raw = await rawSocket(server.url);
  expect(raw.status).toBe(101);
  raw.send({ type: "auth", token });
  await raw.waitFor((f) => f.type === "ready");
  return raw;
}

const within = <T>(p: Promise<T>, ms: number, what: string) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms))]);

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

describe("/ws/chat under attack", () => {
  it("refuses a browser handshake from a foreign Origin with 403 before the upgrade, cookie or not", async () => {
    const p = await person();
    const signedIn = await post("/api/auth/delegate-login", { email: p.username, password: p.password, restrictTo: "NON_ADMIN" });
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    expect(cookie).toContain("session-token=");

    const port = server.port;
    for (const origin of ["https://evil.example", "null", `http://localhost:${port}.evil.example`, `http://127.0.0.1:${port + 1}`, "not a url"]) {
      const raw = await rawSocket(server.url, { origin, headers: { Cookie: cookie } });
      expect(raw.status, origin).toBe(403);
      await within(raw.ended, 5000, `connection of ${origin} ended`);
      expect(raw.frames, origin).toHaveLength(0);
    }

    // The site's own origins: same-origin (Origin's host is the Host), NEXTAUTH_URL's, and the listed ones.
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`, "https://app.example.test", "https://other.example.test"]) {
      const raw = await rawSocket(server.url, { origin, headers: { Cookie: cookie } });
      expect(raw.status, origin).toBe(101);
      expect(await raw.waitFor((f) => f.type === "ready")).toEqual({ type: "ready", userId: p.id });
      raw.socket.destroy();
    }
    // No Origin: not a browser (an agent); it authenticates like anyone else.
    const agent = await rawSocket(server.url);
    expect(agent.status).toBe(101);
    agent.send({ type: "auth", token: p.token });
    await agent.waitFor((f) => f.type === "ready");
    agent.socket.destroy();
  });

  it("closes a 10 MB frame with 1009 from its header alone; the server and other sockets carry on", async () => {
    const [a, b] = await Promise.all([person(), person()]);
    const bystander = await client(b.token);
    const raw = await authenticatedRaw(a.token);
    // The header announces 10 MiB; only 64 KiB follow. The close must not wait for the rest.
    raw.socket.write(encodeFrame(Buffer.alloc(64 * 1024, 0x20), { length: 10 * MiB }));
    await within(raw.ended, 5000, "connection cut");
    expect(raw.closeCode()).toBe(1009);

    const pong = next(bystander.ws, (f) => f.type === "pong");
    bystander.ws.send(JSON.stringify({ type: "ping" }));
    await pong;
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    bystander.ws.close();
  });

  it("drops a 10,000-frame burst past the frame allowance, tells the client once, closes it with 1008 and holds the account off", async () => {
    const [a, b] = await Promise.all([person(), person()]);
    const raw = await authenticatedRaw(a.token);
    const burst = Buffer.concat(Array.from({ length: 10_000 }, (_, i) => encodeFrame(JSON.stringify({ type: "message", to: b.id, content: `flood ${i}` }))));
    const t0 = Date.now();
    raw.socket.write(burst);
    await within(raw.ended, 10_000, "flooder cut");
    const elapsed = Date.now() - t0;
    expect(raw.closeCode()).toBe(1008);
    const frames = raw.json().filter((f) => f.type !== "ready");
    console.log(`10,000-frame burst: ${frames.length} frames answered, closed ${raw.closeCode()} and cut after ${elapsed} ms`);
    // At most the allowance was acted on; of the rest, one error frame, then nothing.
    expect(frames.length).toBeLessThanOrEqual(FRAME_BURST + 1);
    expect(frames.filter((f) => f.code === "rate_limited" && String(f.message).startsWith("Too many frames"))).toHaveLength(1);
    expect(frames.filter((f) => f.type === "ack").length).toBeLessThanOrEqual(20);
    expect(elapsed, "closed quickly").toBeLessThan(5000);

    // The account may not come straight back: its next socket is refused at auth, others are not.
    const again = await rawSocket(server.url);
    again.send({ type: "auth", token: a.token });
    await within(again.ended, 5000, "reconnect refused");
    expect(again.closeCode()).toBe(1008);
    expect(again.json().some((f) => f.type === "ready")).toBe(false);
    (await authenticatedRaw(b.token)).socket.destroy();

    // Without authenticating, the first frame that is not `auth` already ends it.
    const anon = await rawSocket(server.url);
    anon.socket.write(burst);
    await within(anon.ended, 5000, "anonymous flooder cut");
    // Whichever comes first: the budget (1008) or the refusal of the first non-auth frame (4401).
    expect([1008, 4401]).toContain(anon.closeCode());
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });

  // Measured once more when the bound fails: a flooder that slows others down fails twice, while a burst
  // of other work on a shared 2-core runner (the other test files run beside this one) rarely lands on
  // two measurements (a clean clone failed once at p90 45.5 ms attacked against 2 x 19.9 + 2 ms quiet).
  it("keeps other users' delivery latency within 2x while a flooder keeps reconnecting", { timeout: 120_000, retry: 1 }, async () => {
    const receiver = await person();
    const senders = await Promise.all(Array.from({ length: 16 }, () => person()));
    // One flooding account per round, so every round starts with a real burst (an account that
    // flooded is refused for a while after).
    const attackers = await Promise.all(Array.from({ length: ROUNDS }, () => person()));
    const rx = await client(receiver.token);
    const tx = await Promise.all(senders.map((s) => client(s.token)));

    // The sockets and a flooder still running are closed however the measurement ends (it is retried once).
    let stop: (() => Promise<void>) | undefined;
    try {
      const problems: string[] = [];
      rx.closed.then(
        (code) => problems.push(`receiver closed ${code}`),
        () => {},
      );
      tx.forEach((t, i) => {
        t.closed.then(
          (code) => problems.push(`sender ${i} closed ${code}`),
          () => {},
        );
        t.ws.on("message", (d) => {
          const f = JSON.parse(d.toString()) as Record<string, unknown>;
          if (f.type === "error") problems.push(`sender ${i}: ${JSON.stringify(f)}`);
        });
      });
      let sent = 0;
      async function sample(tag: string): Promise<number> {
        const content = `${tag} ${sent}`;
        const ws = tx[sent++ % tx.length]!.ws;
        const got = next(rx.ws, (f) => f.type === "message" && f.content === content);
        const t0 = performance.now();
        ws.send(JSON.stringify({ type: "message", to: receiver.id, content }));
        await got.catch((err: Error) => {
          throw new Error(`${err.message} for "${content}"; ${problems.join("; ") || "no errors or closes seen"}`);
        });
        return performance.now() - t0;
      }

      /** The flooder runs in a process of its own, so its work never delays the measuring client here. */
      const totals = { connections: 0, bursts: 0, closeCodes: {} as Record<string, number> };
      async function startFlooder(token: string) {
        const child = spawn(process.execPath, [path.join(__dirname, "../support/flooder.mjs"), server.url, token, receiver.id, "50"], {
          stdio: ["ignore", "pipe", "inherit"],
        });
        let out = "";
        child.stdout.on("data", (d: Buffer) => (out += d.toString()));
        // Measure from its first burst on.
        await within(new Promise<void>((resolve) => child.stdout.on("data", () => out.includes("burst") && resolve())), 15_000, "flooder's first burst");
        return async () => {
          const exited = new Promise((r) => child.once("exit", r));
          child.kill("SIGTERM");
          await exited;
          const stats = JSON.parse(out.trim().split("\n").pop()!) as typeof totals;
          totals.connections += stats.connections;
          totals.bursts += stats.bursts;
          for (const [code, n] of Object.entries(stats.closeCodes)) totals.closeCodes[code] = (totals.closeCodes[code] ?? 0) + n;
        };
      }

      // Warm up, then alternate quiet and attacked blocks so drifting machine load hits both alike. Six
      // rounds: with four (60 samples a side) the quiet p90 ranged from 10 to 28 ms between runs of the same code
      // on a busy machine, and one run failed the 2x bound on it (34.3 against 2 x 15.4 + 2 ms).
      for (let i = 0; i < 5; i++) await sample("warm");
      const quiet: number[] = [];
      const attacked: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        for (let i = 0; i < 15; i++) quiet.push(await sample("quiet"));
        stop = await startFlooder(attackers[round]!.token);
        for (let i = 0; i < 15; i++) attacked.push(await sample("attacked"));
        await stop();
        stop = undefined;
      }
      const stats = (xs: number[]) => ({ p50: quantile(xs, 0.5), p90: quantile(xs, 0.9), p99: quantile(xs, 0.99) });
      const q = stats(quiet);
      const a = stats(attacked);
      console.log(`chat delivery latency (ms) quiet ${JSON.stringify(q)} attacked ${JSON.stringify(a)}; flooder ${JSON.stringify(totals)}`);
      expect(totals.bursts).toBeGreaterThanOrEqual(ROUNDS);
      // Every flooder connection was closed by the server: for its flood or while cooling off (1008),
      // or, on a machine slow enough, because its auth took longer than this file's 1 s (4401).
      expect(Object.keys(totals.closeCodes).filter((c) => c !== "1008" && c !== "4401")).toEqual([]);
      expect(totals.closeCodes["1008"]).toBeGreaterThanOrEqual(totals.bursts);
      // Within 2x, give or take 2 ms: at single-digit milliseconds one timer tick or GC pause on a shared
      // runner is a quarter of the figure (a gate failed once at p90 15.6 ms against 2 x 7.7 ms).
      expect(a.p50).toBeLessThanOrEqual(2 * q.p50 + 2);
      expect(a.p90).toBeLessThanOrEqual(2 * q.p90 + 2);
    } finally {
      await stop?.().catch(() => {});
      rx.ws.close();
      for (const t of tx) t.ws.close();
    }
  });

  it("cuts connections that never authenticate and never answer the close", async () => {
    const silent = await Promise.all(Array.from({ length: 50 }, () => rawSocket(server.url)));
    const t0 = Date.now();
    await within(Promise.all(silent.map((s) => s.ended)), AUTH_TIMEOUT_MS + 2000 + 3000, "silent connections cut");
    console.log(`50 silent connections: all cut ${Date.now() - t0} ms after opening (auth timeout ${AUTH_TIMEOUT_MS} ms)`);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(AUTH_TIMEOUT_MS - 100);
    expect(silent.map((s) => s.closeCode())).toEqual(silent.map(() => 4401));
  });

  it("terminates authenticated peers that stop answering pings or reading; healthy ones stay", async () => {
    const [a, b, c, d] = await Promise.all([person(), person(), person(), person()]);
    const healthy = await client(a.token);
    // The heartbeat is one timer for every socket: a socket's first ping comes at the first tick after
    // it opened (possibly while the next ones authenticate) and its end one interval later, so the
    // floor below holds from before it opened, not from after the others are ready.
    const t0 = Date.now();
    const noPong = await client(b.token, { autoPong: false });
    const raw = await authenticatedRaw(c.token);
    const deaf = await authenticatedRaw(d.token);
    deaf.socket.pause();
    expect(await within(noPong.closed, 4 * PING_INTERVAL_MS + 2000, "peer without pongs terminated")).toBe(1006);
    await within(raw.ended, 4 * PING_INTERVAL_MS + 2000, "raw peer without pongs terminated");
    expect(
      raw.frames.some((f) => f.opcode === 9),
      "it was pinged",
    ).toBe(true);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(PING_INTERVAL_MS);
    // The peer that stopped reading finds its connection gone once it looks again.
    deaf.socket.resume();
    await within(deaf.ended, 2000, "non-reading peer terminated");

    expect(healthy.ws.readyState).toBe(WebSocket.OPEN);
    const pong = next(healthy.ws, (f) => f.type === "pong");
    healthy.ws.send(JSON.stringify({ type: "ping" }));
    await pong;
    healthy.ws.close();
  });

  it("closes a revoked session's socket mid-session and cuts it when the client ignores the close", async () => {
    const a = await person();
    const b = await person();
    const raw = await authenticatedRaw(a.token);
    raw.send({ type: "message", to: b.id, content: "before", ref: "before" });
    await raw.waitFor((f) => f.ref === "before" && f.type === "ack");
    expect((await post("/api/auth/logout", {}, a.token)).status).toBe(200);
    await within(raw.ended, 2000 + 3000, "revoked connection cut");
    expect(raw.closeCode()).toBe(4401);
    expect(raw.json().filter((f) => f.type === "ack")).toHaveLength(1);
  });
});
