// Credentials (contract 9.1): a password change ends every session, token and API key of the
// account; an AI account cannot change its own password; its guardian sets a new one with
// PATCH /api/ai/accounts, which ends the agent's credentials; delegate-login requires restrictTo.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, baseUrl, createGuardianWithAi, createUser, credentialsSignIn, login } from "../support/api";
import { createApiKey } from "../support/mcp";
import { chatSocket } from "../support/ws";

type Me = { user: { id: string } | null };
type Account = { aiUserId: string; username: string; maxDiscountPercent: number; disabled: boolean };

/** A JSON-RPC call to /mcp with an API key: the status tells whether the key still opens the tool server. */
async function mcpStatus(key: string): Promise<number> {
  const res = await fetch(`${baseUrl()}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "x-api-key": key },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  });
  await res.body?.cancel();
  return res.status;
}

/** The session cookie of a delegate-login (how an AI account signs in to the web client). */
async function delegateCookie(username: string, password: string): Promise<string> {
  const res = await api("/api/auth/delegate-login", { json: { email: username, password, restrictTo: "NON_ADMIN" } });
  expect(res.status).toBe(200);
  return res.headers
    .getSetCookie()
    .find((c) => c.startsWith("next-auth.session-token="))!
    .split(";")[0]!;
}

/** Every kind of credential of one account: two Bearer tokens, a cookie session, an API key. */
async function credentials(username: string, password: string, cookie: () => Promise<string>) {
  const [t1, t2] = [await login(username, password), await login(username, password)];
  return { t1, t2, cookie: await cookie(), key: await createApiKey(t1, "before the change") };
}

async function expectAlive(c: Awaited<ReturnType<typeof credentials>>, userId: string) {
  for (const token of [c.t1, c.t2, c.key.secret]) expect((await api<Me>("/api/auth/me", { token })).body.user?.id).toBe(userId);
  expect((await api<Me>("/api/auth/me", { cookie: c.cookie })).body.user?.id).toBe(userId);
  expect(await mcpStatus(c.key.secret)).toBe(200);
}

async function expectDead(c: Awaited<ReturnType<typeof credentials>>) {
  for (const token of [c.t1, c.t2, c.key.secret]) {
    const res = await api("/api/auth/me", { token });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("unauthenticated");
  }
  // A revoked cookie session reads as signed out, and writes with it are 401.
  expect((await api<Me>("/api/auth/me", { cookie: c.cookie })).body.user).toBeNull();
  expect((await api("/api/keys", { cookie: c.cookie, json: { name: "after" } })).status).toBe(401);
  expect(await mcpStatus(c.key.secret)).toBe(401);
}

describe("a human's password change", () => {
  it("ends every session, token and API key (REST and /mcp), closes the sockets, and says the client must sign in again", async () => {
    const user = await createUser("BUYER");
    const c = await credentials(user.username, user.password, async () => (await credentialsSignIn(user.username, user.password)).sessionCookie!);
    await expectAlive(c, user.id);
    const socket = await chatSocket(c.t2);

    const res = await api<{ ok: boolean; revokedSessions: number; revokedApiKeys: number; signInAgain: boolean }>("/api/user/password", {
      token: c.t1,
      json: { currentPassword: user.password, newPassword: "a-brand-new-secret" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, revokedSessions: 3, revokedApiKeys: 1, signInAgain: true });
    expect(res.headers.getSetCookie().some((s) => /^next-auth\.session-token=;/.test(s))).toBe(true);
    expect((await socket.closed).code).toBe(4401);
    await expectDead(c);
    const keys = await api<{ keys: { id: string; revokedAt: string | null }[] }>("/api/keys", { token: await login(user.username, "a-brand-new-secret") });
    expect(keys.body.keys.find((k) => k.id === c.key.id)?.revokedAt).toBeTruthy();
    expect((await api("/api/auth/login", { json: { email: user.username, password: user.password } })).status).toBe(401);
  });

  it("from the cookie session too (the web client), and a key made afterwards works", async () => {
    const user = await createUser("SELLER", { companyName: "Cookie Co" });
    const c = await credentials(user.username, user.password, async () => (await credentialsSignIn(user.username, user.password)).sessionCookie!);
    const res = await api("/api/user/password", { cookie: c.cookie, json: { currentPassword: user.password, newPassword: "cookie-side-secret" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ revokedSessions: 3, revokedApiKeys: 1, signInAgain: true });
    await expectDead(c);
    const fresh = await createApiKey(await login(user.email, "cookie-side-secret"));
    expect(await mcpStatus(fresh.secret)).toBe(200);
  });

  it("a wrong current password or a bad new one is 400 and ends nothing", async () => {
    const user = await createUser("BUYER");
    const c = await credentials(user.username, user.password, async () => (await credentialsSignIn(user.username, user.password)).sessionCookie!);
    const bodies = [
      { currentPassword: "not-it-at-all", newPassword: "long-enough-new" },
      { currentPassword: user.password, newPassword: "short" },
      { currentPassword: user.password, newPassword: "x".repeat(129) },
      { currentPassword: user.password },
    ];
    for (const json of bodies) {
      const res = await api("/api/user/password", { token: c.t1, json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body.code).toBe("validation_failed");
    }
    await expectAlive(c, user.id);
  });
});

describe("an AI account's own password", () => {
  it("is 403 forbidden on every credential and path, audited, and changes nothing", async () => {
    const { aiPassword, aiBuyer, guardianToken } = await createGuardianWithAi();
    const c = await credentials(aiBuyer.username, aiPassword, () => delegateCookie(aiBuyer.username, aiPassword));
    const attempts = [
      { path: "/api/user/password", auth: { token: c.t1 } },
      { path: "/api/user/password", auth: { cookie: c.cookie } },
      { path: "/api/user/password", auth: { token: c.key.secret } },
      { path: "/user/password", auth: { token: c.t2 } }, // the /api-less alias
    ];
    for (const { path, auth } of attempts) {
      for (const currentPassword of [aiPassword, "a-wrong-password"]) {
        const res = await api(path, { ...auth, json: { currentPassword, newPassword: "agent-picked-this" } });
        expect(res.status, `${path} ${JSON.stringify(auth)}`).toBe(403);
        expect(res.body.code).toBe("forbidden");
      }
    }
    await expectAlive(c, aiBuyer.aiUserId);
    expect((await api("/api/auth/login", { json: { email: aiBuyer.username, password: "agent-picked-this" } })).status).toBe(401);
    expect((await api("/api/auth/login", { json: { email: aiBuyer.username, password: aiPassword } })).status).toBe(200);

    const log = await api<{ logs: { action: string; success: boolean }[] }>(`/api/ai/audit-logs?aiUserId=${aiBuyer.aiUserId}&action=account.password`, {
      token: guardianToken,
    });
    expect(log.body.logs).toHaveLength(attempts.length * 2);
    expect(log.body.logs.every((l) => !l.success)).toBe(true);
  });

  it("cannot be set by the agent through the guardian's PATCH either (guardian endpoints are 404 to AI accounts)", async () => {
    const { aiPassword, aiBuyer } = await createGuardianWithAi();
    const token = await login(aiBuyer.username, aiPassword);
    const res = await api("/api/ai/accounts", { method: "PATCH", token, json: { aiUserId: aiBuyer.aiUserId, password: "agent-picked-this" } });
    expect(res.status).toBe(404);
    expect((await api("/api/auth/login", { json: { email: aiBuyer.username, password: aiPassword } })).status).toBe(200);
  });
});

describe("the guardian sets a new password for its agent", () => {
  it("PATCH /api/ai/accounts { aiUserId, password } ends the agent's sessions, tokens, keys and sockets; the sibling and the guardian keep theirs", async () => {
    const { guardian, guardianToken, aiPassword, aiBuyer, aiSeller } = await createGuardianWithAi();
    const c = await credentials(aiBuyer.username, aiPassword, () => delegateCookie(aiBuyer.username, aiPassword));
    const sibling = await credentials(aiSeller.username, aiPassword, () => delegateCookie(aiSeller.username, aiPassword));
    const socket = await chatSocket(c.t2);

    const res = await api<{ account: Account }>("/api/ai/accounts", {
      method: "PATCH",
      token: guardianToken,
      json: { aiUserId: aiBuyer.aiUserId, password: "guardian-chose-this", maxDiscountPercent: 7 },
    });
    expect(res.status).toBe(200);
    expect(res.body.account).toMatchObject({ aiUserId: aiBuyer.aiUserId, maxDiscountPercent: 7, disabled: false });
    expect(res.text).not.toContain("guardian-chose-this");
    expect((await socket.closed).code).toBe(4401);
    await expectDead(c);
    await expectAlive(sibling, aiSeller.aiUserId);
    expect((await api<Me>("/api/auth/me", { token: guardianToken })).body.user?.id).toBe(guardian.id);

    expect((await api("/api/auth/login", { json: { email: aiBuyer.username, password: aiPassword } })).status).toBe(401);
    const fresh = await login(aiBuyer.username, "guardian-chose-this");
    expect((await api<Me>("/api/auth/me", { token: fresh })).body.user?.id).toBe(aiBuyer.aiUserId);
    await delegateCookie(aiBuyer.username, "guardian-chose-this");
  });

  it("refuses bad passwords with 400 naming the field, and another guardian's agent with 404; nothing changes", async () => {
    const { guardianToken, aiPassword, aiBuyer } = await createGuardianWithAi();
    const c = await credentials(aiBuyer.username, aiPassword, () => delegateCookie(aiBuyer.username, aiPassword));
    for (const password of ["short", "", "y".repeat(129), 12345678, null]) {
      const res = await api<{ code: string; errors: { path: string }[] }>("/api/ai/accounts", {
        method: "PATCH",
        token: guardianToken,
        json: { aiUserId: aiBuyer.aiUserId, password, maxDiscountPercent: 3 },
      });
      expect(res.status, String(password)).toBe(400);
      expect(res.body.code).toBe("validation_failed");
      expect(res.body.errors.map((e) => e.path)).toContain("password");
    }
    const other = await createGuardianWithAi();
    const foreign = await api("/api/ai/accounts", {
      method: "PATCH",
      token: other.guardianToken,
      json: { aiUserId: aiBuyer.aiUserId, password: "takeover-attempt" },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe("not_found");
    // Another guardian's agent answers exactly like one that does not exist.
    const missing = await api("/api/ai/accounts", {
      method: "PATCH",
      token: other.guardianToken,
      json: { aiUserId: randomUUID(), password: "takeover-attempt" },
    });
    expect([missing.status, missing.body.code]).toEqual([404, "not_found"]);

    await expectAlive(c, aiBuyer.aiUserId);
    expect((await api("/api/auth/login", { json: { email: aiBuyer.username, password: "takeover-attempt" } })).status).toBe(401);
    const list = await api<{ accounts: Account[] }>("/api/ai/accounts", { token: guardianToken });
    expect(list.body.accounts.find((a) => a.aiUserId === aiBuyer.aiUserId)?.maxDiscountPercent).toBe(10);
  });
});

describe("delegate-login", () => {
  it("without restrictTo NON_ADMIN is 400 validation_failed before the password is checked, and sets no session", async () => {
    const user = await createUser("BUYER");
    const bodies = [
      { email: user.username, password: user.password },
      { email: user.username, password: user.password, restrictTo: null },
      { email: user.username, password: user.password, restrictTo: "non_admin" },
      { email: user.username, password: "a-wrong-password" },
    ];
    for (const path of ["/api/auth/delegate-login", "/auth/delegate-login"]) {
      for (const json of bodies) {
        const res = await api<{ code: string; errors: { path: string }[] }>(path, { json });
        expect(res.status, `${path} ${JSON.stringify(json)}`).toBe(400);
        expect(res.body.code).toBe("validation_failed");
        expect(res.body.errors.map((e) => e.path)).toEqual(["restrictTo"]);
        expect(res.headers.getSetCookie().some((s) => s.startsWith("next-auth.session-token="))).toBe(false);
      }
    }
  });
});
