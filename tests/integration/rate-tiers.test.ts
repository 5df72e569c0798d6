// Rate tiers (contract 6) on servers started with small limits: anonymous callers per IP,
// accounts per account, ADMIN-granted unlimited accounts and keys, /mcp counted like /api, and one
// counter shared by every instance on PostgreSQL.
import postgres from "postgres";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { adminToken, api, createUser } from "../support/api";
import { startServer, type RunningServer } from "../support/server";

const MCP_INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
});

/** A small client for a server of the test's own; `ip` is sent as X-Forwarded-For (TRUST_PROXY=1). */
function client(server: RunningServer, ip: string) {
  return async (path: string, init: { method?: string; json?: unknown; token?: string; headers?: Record<string, string> } = {}) => {
    const headers: Record<string, string> = { "x-forwarded-for": ip, ...(init.headers ?? {}) };
    if (init.json !== undefined) headers["content-type"] = "application/json";
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    const res = await fetch(`${server.url}${path}`, {
      method: init.method ?? (init.json !== undefined ? "POST" : "GET"),
      headers,
      body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
  };
}

const mcpPost = (key?: string, ip?: string) => ({
  method: "POST",
  headers: {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    ...(key ? { "x-api-key": key } : {}),
    ...(ip ? { "x-forwarded-for": ip } : {}),
  },
});

describe("rate tiers with small limits", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ RATE_LIMIT_ANON_PER_HOUR: "5", RATE_LIMIT_USER_PER_HOUR: "3", TRUST_PROXY: "1", DATABASE_URL: "" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("answers the 6th anonymous call 429 with Retry-After, counting /api and /mcp alike; health is exempt", async () => {
    const call = client(server, "198.51.100.1");
    const answers = [];
    for (let i = 0; i < 3; i++) {
      answers.push(await call("/api/categories"));
      const res = await fetch(`${server.url}/mcp`, { ...mcpPost(undefined, "198.51.100.1"), body: MCP_INIT });
      answers.push({ status: res.status, headers: res.headers });
    }
    expect(answers.map((a) => a.status)).toEqual([200, 401, 200, 401, 200, 429]);
    for (const [i, a] of answers.entries()) {
      expect(a.headers.get("ratelimit-policy")).toBe("5;w=3600");
      expect(a.headers.get("ratelimit")).toMatch(new RegExp(`^limit=5, remaining=${Math.max(0, 4 - i)}, reset=\\d+$`));
    }
    const limited = answers[5]!;
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await call("/api/categories")).status).toBe(429);
    expect((await call("/api/health")).status).toBe(200);
    // Another address has its own budget.
    expect((await client(server, "198.51.100.2")("/api/categories")).status).toBe(200);
  });

  it("counts concurrent calls exactly: 5 of 12 at once pass, each told its own remaining count", async () => {
    // Calls arriving together share one counter write (group commit); each still gets its place.
    const call = client(server, "198.51.100.9");
    const answers = await Promise.all(Array.from({ length: 12 }, () => call("/api/categories")));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(7);
    const remaining = answers.filter((a) => a.status === 200).map((a) => Number(/remaining=(\d+)/.exec(a.headers.get("ratelimit") ?? "")?.[1]));
    expect(remaining.sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it("limits an account, and not once an ADMIN grants it (or one of its keys) the unlimited tier", async () => {
    const call = client(server, "198.51.100.3");
    const register = async (username: string) => {
      expect(
        (await call("/api/accounts/create", { json: { email: `${username}@example.test`, username, password: "password-123", role: "BUYER" } })).status,
      ).toBe(201);
      const res = await call("/api/auth/login", { json: { email: username, password: "password-123" } });
      return res.body.token as string;
    };
    const suffix = Date.now().toString(36);
    const token = await register(`rt_a_${suffix}`);
    const me = await call("/api/auth/me", { token });
    const userId = (me.body.user as { id: string }).id;
    for (let i = 0; i < 2; i++) expect((await call("/api/auth/me", { token })).status).toBe(200);
    const limited = await call("/api/auth/me", { token });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe("rate_limited");
    expect(limited.headers.get("retry-after")).toBeTruthy();

    const adminCall = client(server, "198.51.100.4");
    const admin = (await adminCall("/api/auth/login", { json: { email: "test_admin", password: "test-admin-password" } })).body.token as string;
    const granted = await adminCall("/api/admin/rate-tiers", { method: "PUT", token: admin, json: { userId, tier: "unlimited" } });
    expect(granted.status).toBe(200);
    expect(granted.body).toEqual({ userId, tier: "unlimited" });
    for (let i = 0; i < 6; i++) expect((await call("/api/auth/me", { token })).status).toBe(200);

    // A second account: its key made unlimited, its JWT still limited (the account's tier).
    const token2 = await register(`rt_b_${suffix}`);
    const key = await call("/api/keys", { token: token2, json: { name: "bulk" } });
    expect(key.status).toBe(201);
    const secret = key.body.secret as string;
    const keyId = (key.body.key as { id: string }).id;
    for (let i = 0; i < 2; i++) expect((await call("/api/auth/me", { token: token2 })).status).toBe(200);
    expect((await call("/api/auth/me", { token: secret })).status).toBe(429);
    expect((await adminCall("/api/admin/rate-tiers", { method: "PUT", token: admin, json: { apiKeyId: keyId, tier: "unlimited" } })).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await call("/api/auth/me", { token: secret })).status).toBe(200);
    const mcp = await fetch(`${server.url}/mcp`, { ...mcpPost(secret), body: MCP_INIT });
    expect(mcp.status).toBe(200);
    expect((await call("/api/auth/me", { token: token2 })).status).toBe(429);
  });

  it("counts /mcp requests of a key against its account", async () => {
    const call = client(server, "198.51.100.5");
    const username = `rt_c_${Date.now().toString(36)}`;
    await call("/api/accounts/create", { json: { email: `${username}@example.test`, username, password: "password-123", role: "BUYER" } });
    const token = (await call("/api/auth/login", { json: { email: username, password: "password-123" } })).body.token as string;
    const secret = (await call("/api/keys", { token, json: { name: "mcp" } })).body.secret as string;
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${server.url}/mcp`, { ...mcpPost(secret), body: MCP_INIT });
      statuses.push(res.status);
      if (res.status === 429) expect(res.headers.get("retry-after")).toBeTruthy();
      else expect(res.headers.get("ratelimit")).toMatch(/^limit=3, remaining=\d+, reset=\d+$/);
    }
    // Creating the key was the first request of the account: the third MCP request is the 4th.
    expect(statuses).toEqual([200, 200, 429]);
  });

  it("counts NextAuth's credentials callback against the anonymous tier (a sign-in attempt), not its session and CSRF reads", async () => {
    const ip = "198.51.100.91";
    const headers = { "x-forwarded-for": ip };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const csrfRes = await fetch(`${server.url}/api/auth/csrf`, { headers });
      const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
      const cookie = csrfRes.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
      const res = await fetch(`${server.url}/api/auth/callback/credentials`, {
        method: "POST",
        headers: { ...headers, cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken, email: "nobody-here", password: "wrong-password", json: "true" }).toString(),
        redirect: "manual",
      });
      statuses.push(res.status);
      if (res.status === 429) expect(res.headers.get("content-type")).toContain("application/problem+json");
    }
    // Five attempts pass to NextAuth (refused sign-ins), the sixth is braked; the CSRF reads never counted.
    expect(statuses.slice(0, 5).every((s) => s !== 429)).toBe(true);
    expect(statuses[5]).toBe(429);
    expect((await fetch(`${server.url}/api/auth/session`, { headers })).status).toBe(200);
  });

  it("counts a socket's invalid auth frames against the anonymous tier of its address: the 6th is closed as a policy breach", async () => {
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) {
      const ws = new WebSocket(`${server.url.replace(/^http/, "ws")}/ws/chat`, { headers: { "x-forwarded-for": "198.51.100.77" } });
      await new Promise<void>((resolve, reject) => {
        ws.once("open", () => ws.send(JSON.stringify({ type: "auth", token: "not-a-token" })));
        ws.once("close", (code) => {
          codes.push(code);
          resolve();
        });
        ws.once("error", reject);
      });
    }
    expect(codes).toEqual([4401, 4401, 4401, 4401, 4401, 1008]);
    // The address's anonymous allowance is spent for HTTP too; another address is untouched.
    expect((await client(server, "198.51.100.77")("/api/categories")).status).toBe(429);
    expect((await client(server, "198.51.100.78")("/api/categories")).status).toBe(200);
  });
});

describe("PUT /api/admin/rate-tiers", () => {
  it("is for ADMINs only and answers 404 for unknown ids, 400 without exactly one target", async () => {
    const user = await createUser("BUYER");
    const admin = await adminToken();
    const userToken = (await api<{ token: string }>("/api/auth/login", { json: { email: user.username, password: user.password } })).body.token;
    expect((await api("/api/admin/rate-tiers", { method: "PUT", json: { userId: user.id, tier: "unlimited" } })).status).toBe(401);
    expect(
      (await api<{ code: string }>("/api/admin/rate-tiers", { method: "PUT", token: userToken, json: { userId: user.id, tier: "unlimited" } })).body.code,
    ).toBe("forbidden");
    expect((await api("/api/admin/rate-tiers", { method: "PUT", token: admin, json: { userId: "no-such-user", tier: "unlimited" } })).status).toBe(404);
    expect((await api("/api/admin/rate-tiers", { method: "PUT", token: admin, json: { apiKeyId: "no-such-key", tier: "unlimited" } })).status).toBe(404);
    expect((await api("/api/admin/rate-tiers", { method: "PUT", token: admin, json: { tier: "unlimited" } })).status).toBe(400);
    expect((await api("/api/admin/rate-tiers", { method: "PUT", token: admin, json: { userId: user.id, apiKeyId: "k", tier: "unlimited" } })).status).toBe(400);
    expect((await api("/api/admin/rate-tiers", { method: "PUT", token: admin, json: { userId: user.id, tier: "gold" } })).status).toBe(400);
    const back = await api("/api/admin/rate-tiers", { method: "PUT", token: admin, json: { userId: user.id, tier: "standard" } });
    expect(back.status).toBe(200);
    expect(back.body).toEqual({ userId: user.id, tier: "standard" });
  });
});

describe.runIf(inject("dbKind") === "postgres")("rate limits across instances", () => {
  it("shares one counter between two servers on the same database", async () => {
    const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    const name = `rate_${Date.now().toString(36)}`;
    await admin.unsafe(`create database ${name}`);
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${name}`;
    const env = { DATABASE_URL: url.toString(), RATE_LIMIT_ANON_PER_HOUR: "5" };
    const servers: RunningServer[] = [];
    try {
      servers.push(await startServer(env));
      servers.push(await startServer(env));
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await fetch(`${servers[i % 2]!.url}/api/categories`)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      const mcp = await fetch(`${servers[0]!.url}/mcp`, { ...mcpPost(), body: MCP_INIT });
      expect(mcp.status).toBe(429);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }, 120_000);
});

// PGlite: one process holds the data directory, so the request tiers are counted in memory and written behind
// (lib/api/rate-limit.ts): the count must survive a shutdown, and reach the table within a moment without one.
describe.runIf(inject("dbKind") === "pglite")("rate counts on PGlite across restarts", () => {
  it("keeps the window's count through a SIGTERM and through a kill -9 a moment after the requests", async () => {
    const env = { RATE_LIMIT_ANON_PER_HOUR: "10", TRUST_PROXY: "1" };
    let server = await startServer(env, { timeoutMs: 240_000 });
    const dataDir = server.dataDir;
    const remaining = async () => {
      const res = await client(server, "203.0.113.77")("/api/categories");
      expect(res.status).toBe(200);
      return Number(/remaining=(\d+)/.exec(res.headers.get("ratelimit") ?? "")?.[1]);
    };
    try {
      expect([await remaining(), await remaining()]).toEqual([9, 8]);
      expect(await server.stop("SIGTERM")).toBe(0);
      server = await startServer(env, { dataDir, timeoutMs: 240_000 });
      expect([await remaining(), await remaining()]).toEqual([7, 6]);
      // Written behind within a quarter of a second: a kill a second later loses none of them.
      await new Promise((r) => setTimeout(r, 1000));
      await server.stop("SIGKILL");
      server = await startServer(env, { dataDir, timeoutMs: 240_000 });
      expect(await remaining()).toBe(5);
    } finally {
      await server.stop();
    }
  }, 600_000);
});
