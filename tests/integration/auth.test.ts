import { describe, expect, it } from "vitest";
import { api, createGuardianWithAi, createUser, credentialsSignIn, login } from "../support/api";

describe("sign-in for humans", () => {
  it("works through /api/auth/login by username and by e-mail, and the token authenticates", async () => {
    const user = await createUser("BUYER");
    for (const id of [user.username, user.email, user.username.toUpperCase()]) {
      const res = await api<{ token: string; tokenType: string; expiresAt: string; user: { id: string; isAI: boolean } }>("/api/auth/login", {
        json: { email: id, password: user.password },
      });
      expect(res.status, id).toBe(200);
      expect(res.body.tokenType).toBe("Bearer");
      expect(res.body.user).toMatchObject({ id: user.id, isAI: false });
      const hours = (Date.parse(res.body.expiresAt) - Date.now()) / 3_600_000;
      expect(hours).toBeGreaterThan(11.9);
      expect(hours).toBeLessThanOrEqual(12);
      const me = await api<{ user: { id: string } }>("/api/auth/me", { token: res.body.token });
      expect(me.body.user.id).toBe(user.id);
    }
  });

  it("answers a wrong password and an unknown user the same way", async () => {
    const user = await createUser("BUYER");
    const wrong = await api("/api/auth/login", { json: { email: user.username, password: "wrong-password" } });
    const unknown = await api("/api/auth/login", { json: { email: "nobody-here-xyz", password: "wrong-password" } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.code).toBe("unauthenticated");
    expect(wrong.body.detail).toBe(unknown.body.detail);
  });

  it("works through the NextAuth credentials callback and delegate-login, setting a session cookie", async () => {
    const user = await createUser("SELLER");
    const signed = await credentialsSignIn(user.email, user.password);
    expect(signed.sessionCookie).toMatch(/^next-auth\.session-token=/);
    const me = await api<{ user: { id: string } }>("/api/auth/me", { cookie: signed.sessionCookie! });
    expect(me.body.user.id).toBe(user.id);

    const bad = await credentialsSignIn(user.email, "wrong-password");
    expect(bad.sessionCookie).toBeNull();
    // A NUL in the name is a wrong name like any other (not "unavailable" from the database).
    const nul = await credentialsSignIn(`${user.username}\u0000`, user.password);
    expect(nul.sessionCookie).toBeNull();
    expect([nul.status, nul.body]).toEqual([bad.status, bad.body]);

    const delegated = await api<{ user: { id: string; isAI: boolean; guardian: unknown }; redirectTo: string }>("/api/auth/delegate-login", {
      json: { email: user.username, password: user.password, restrictTo: "NON_ADMIN" },
    });
    expect(delegated.status).toBe(200);
    expect(delegated.body.user).toMatchObject({ id: user.id, isAI: false, guardian: null });
    expect(delegated.body.redirectTo).toBe("/");
    const cookie = delegated.headers.getSetCookie().find((c) => c.startsWith("next-auth.session-token="))!;
    expect(cookie).toContain("HttpOnly");
    const me2 = await api<{ user: { id: string } }>("/api/auth/me", { cookie: cookie.split(";")[0]! });
    expect(me2.body.user.id).toBe(user.id);
  });

  it("requires restrictTo NON_ADMIN on delegate-login", async () => {
    const user = await createUser("BUYER");
    for (const restrictTo of [undefined, "ADMIN", "", 1]) {
      const res = await api("/api/auth/delegate-login", { json: { email: user.username, password: user.password, restrictTo } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("validation_failed");
    }
  });
});

describe("sign-in for AI accounts", () => {
  it("accepts the username on all three routes and refuses the e-mail", async () => {
    const { guardian, aiPassword, aiBuyer, aiSeller } = await createGuardianWithAi();
    expect(aiBuyer.username).toBe(`${guardian.username}_AI_BUYER`);
    expect(aiSeller.username).toBe(`${guardian.username}_AI_SELLER`);

    const token = await login(aiBuyer.username, aiPassword);
    const me = await api<{ user: { isAI: boolean; role: string; guardian: { id: string } } }>("/api/auth/me", { token });
    expect(me.body.user).toMatchObject({ isAI: true, role: "AI_BUYER", guardian: { id: guardian.id } });

    const delegated = await api<{ user: { isAI: boolean; role: string; guardian: { id: string; username: string } }; redirectTo: string }>(
      "/api/auth/delegate-login",
      { json: { email: aiSeller.username, password: aiPassword, restrictTo: "NON_ADMIN" } },
    );
    expect(delegated.status).toBe(200);
    expect(delegated.body.user).toMatchObject({ isAI: true, role: "AI_SELLER", guardian: { id: guardian.id, username: guardian.username } });
    expect(delegated.body.redirectTo).toBe("/seller");

    const viaCallback = await credentialsSignIn(aiBuyer.username, aiPassword);
    expect(viaCallback.sessionCookie).not.toBeNull();

    // The shared e-mail never signs in an AI account: same 401 as a wrong password.
    const byEmail = await api("/api/auth/login", { json: { email: guardian.email, password: aiPassword } });
    const wrong = await api("/api/auth/login", { json: { email: aiBuyer.username, password: "not-the-password" } });
    expect(byEmail.status).toBe(401);
    expect(byEmail.body.detail).toBe(wrong.body.detail);
    const byEmailDelegate = await api("/api/auth/delegate-login", { json: { email: guardian.email, password: aiPassword, restrictTo: "NON_ADMIN" } });
    expect(byEmailDelegate.status).toBe(401);
    const byEmailCallback = await credentialsSignIn(guardian.email, aiPassword);
    expect(byEmailCallback.sessionCookie).toBeNull();
  });

  it("refuses AI accounts on guardian endpoints with 404", async () => {
    const { aiPassword, aiBuyer } = await createGuardianWithAi();
    const token = await login(aiBuyer.username, aiPassword);
    const res = await api("/api/ai/accounts", { token, json: { role: "AI_SELLER", password: "whatever-long" } });
    expect(res.status).toBe(404);
  });
});

describe("sessions and tokens", () => {
  it("revokes the session on logout: the same token and cookie get 401 / signed out", async () => {
    const user = await createUser();
    const token = await login(user.username, user.password);
    expect((await api("/api/auth/logout", { token, method: "POST" })).status).toBe(200);
    const after = await api("/api/auth/me", { token });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe("unauthenticated");
    expect(after.headers.get("content-type")).toContain("application/problem+json");

    const signed = await credentialsSignIn(user.username, user.password);
    const logout = await api("/api/auth/logout", { cookie: signed.sessionCookie!, method: "POST" });
    expect(logout.status).toBe(200);
    const me = await api<{ user: unknown }>("/api/auth/me", { cookie: signed.sessionCookie! });
    expect(me.body.user).toBeNull();
    expect((await api("/api/auth/logout", { cookie: signed.sessionCookie!, method: "POST" })).status).toBe(401);
  });

  it("refuses bad Bearer tokens with 401 problem+json", async () => {
    const user = await createUser();
    const token = await login(user.username, user.password);
    const [h, p] = token.split(".");
    const payload = JSON.parse(Buffer.from(p!, "base64url").toString()) as Record<string, unknown>;
    const none = `${Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")}.${p}.`;
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...payload, sub: "someone-else" })).toString("base64url")}.${token.split(".")[2]}`;
    for (const bad of ["garbage", none, forged, `${token}x`]) {
      const res = await api("/api/auth/me", { token: bad });
      expect(res.status, bad).toBe(401);
      expect(res.body.code).toBe("unauthenticated");
    }
    const malformedHeader = await api("/api/auth/me", { headers: { authorization: "Basic abc" } });
    expect(malformedHeader.status).toBe(401);
  });
});

describe("password change", () => {
  it("ends every session and token of the account; the new password signs in", async () => {
    const user = await createUser();
    const t1 = await login(user.username, user.password);
    const t2 = await login(user.email, user.password);
    const { sessionCookie } = await credentialsSignIn(user.username, user.password);
    const wrong = await api("/api/user/password", { token: t1, json: { currentPassword: "nope", newPassword: "brand-new-pass-1" } });
    expect(wrong.status).toBe(400);
    expect((await api("/api/auth/me", { token: t1 })).status).toBe(200);
    const ok = await api<{ revokedSessions: number }>("/api/user/password", {
      token: t1,
      json: { currentPassword: user.password, newPassword: "brand-new-pass-1" },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.revokedSessions).toBe(3);
    for (const token of [t1, t2]) expect((await api("/api/auth/me", { token })).status).toBe(401);
    expect((await api<{ user: unknown }>("/api/auth/me", { cookie: sessionCookie! })).body.user).toBeNull();
    expect((await api("/api/auth/login", { json: { email: user.username, password: user.password } })).status).toBe(401);
    expect((await api("/api/auth/login", { json: { email: user.username, password: "brand-new-pass-1" } })).status).toBe(200);
  });
});
