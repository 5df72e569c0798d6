// Issue #7, point 5: every way to present credentials (Bearer JWT, NextAuth session cookie, API key,
// the chat socket's auth frame and cookie, and the login routes themselves) refuses forged,
// tampered, expired and ended credentials, with the right answer and without side effects.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { SignJWT, UnsecuredJWT } from "jose";
import { encode } from "next-auth/jwt";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { api, createGuardianWithAi, createSeller, createUser, credentialsSignIn, login, someCategory, unique } from "../support/api";
import { createApiKey } from "../support/mcp";
import { chatSocket } from "../support/ws";

/** The server's AUTH_SECRET: generated into its data directory unless the environment set one. */
function serverSecret(): string {
  const file = path.join(inject("dataDir"), "auth-secret");
  return existsSync(file) ? readFileSync(file, "utf8").trim() : process.env.AUTH_SECRET!;
}

const key = (secret: string) => new TextEncoder().encode(secret);
const WRONG_SECRET = "not-the-server-secret-0123456789-abcdefgh";
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");

type Claims = { sub: string; sid: string };
function claimsOf(token: string): Claims & Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as Claims & Record<string, unknown>;
}

async function jwt(payload: Record<string, unknown>, o: { secret?: string; alg?: string; issuer?: string | null; exp?: number; nbf?: number } = {}) {
  const j = new SignJWT(payload).setProtectedHeader({ alg: o.alg ?? "HS256", typ: "JWT" }).setIssuedAt();
  if (o.issuer !== null) j.setIssuer(o.issuer ?? "expo-trade");
  j.setExpirationTime(o.exp ?? Math.floor(Date.now() / 1000) + 3600);
  if (o.nbf) j.setNotBefore(o.nbf);
  return j.sign(key(o.secret ?? serverSecret()));
}

/** Bearer tokens derived from a live session `c` (and another account's id), each of which must be refused. */
async function forgedBearers(c: Claims, token: string, otherUserId: string): Promise<Record<string, string>> {
  const now = Math.floor(Date.now() / 1000);
  const [h, p] = token.split(".");
  return {
    "alg none": new UnsecuredJWT({ sub: c.sub, sid: c.sid, iss: "expo-trade" }).setIssuedAt().setExpirationTime("1h").encode(),
    "alg none, signature kept": `${b64({ alg: "none", typ: "JWT" })}.${p}.${token.split(".")[2]}`,
    "HS256 with a wrong key": await jwt({ sub: c.sub, sid: c.sid }, { secret: WRONG_SECRET }),
    "HS512 with the right key": await jwt({ sub: c.sub, sid: c.sid }, { alg: "HS512" }),
    "payload edited, signature kept": `${h}.${b64({ ...claimsOf(token), role: "ADMIN" })}.${token.split(".")[2]}`,
    expired: await jwt({ sub: c.sub, sid: c.sid }, { exp: now - 120 }),
    "not yet valid": await jwt({ sub: c.sub, sid: c.sid }, { nbf: now + 3600 }),
    "missing sub": await jwt({ sid: c.sid }),
    "missing sid": await jwt({ sub: c.sub }),
    "wrong issuer": await jwt({ sub: c.sub, sid: c.sid }, { issuer: "someone-else" }),
    "no issuer": await jwt({ sub: c.sub, sid: c.sid }, { issuer: null }),
    "another user's sub on this sid": await jwt({ sub: otherUserId, sid: c.sid }),
    "truncated signature": token.slice(0, -4),
  };
}

/** NextAuth session cookies derived from a live cookie session, each of which must be refused. */
async function forgedCookies(c: Claims, cookieValue: string, otherUserId: string): Promise<Record<string, string>> {
  const secret = serverSecret();
  const mid = Math.floor(cookieValue.length / 2);
  const flipped = cookieValue.slice(0, mid) + (cookieValue[mid] === "A" ? "B" : "A") + cookieValue.slice(mid + 1);
  return {
    "JWE with a wrong secret": await encode({ secret: WRONG_SECRET, token: { sub: c.sub, sid: c.sid } }),
    "tampered ciphertext": flipped,
    "expired JWE": await encode({ secret, token: { sub: c.sub, sid: c.sid }, maxAge: -3600 }),
    "JWE missing sub": await encode({ secret, token: { sid: c.sid } }),
    "JWE missing sid": await encode({ secret, token: { sub: c.sub } }),
    "JWE of another user on this sid": await encode({ secret, token: { sub: otherUserId, sid: c.sid } }),
    "signed JWS instead of JWE": await jwt({ sub: c.sub, sid: c.sid }, { secret }),
    "alg none JWT": new UnsecuredJWT({ sub: c.sub, sid: c.sid }).encode(),
  };
}

const cookieHeader = (value: string) => `next-auth.session-token=${value}`;

/** The session claims inside a cookie the server issued. */
async function cookieClaims(cookie: string): Promise<Claims> {
  const { decode } = await import("next-auth/jwt");
  const t = await decode({ token: cookie.split("=").slice(1).join("="), secret: serverSecret() });
  return { sub: String(t!.sub), sid: String(t!.sid) };
}

/** POST /api/products must refuse; the product must not exist afterwards. */
async function refusedCreate(headers: Record<string, string>, title: string) {
  const { leaf } = await someCategory();
  const res = await api("/api/products", { headers, json: { title, price: 5, currency: "USD", category: leaf.id, moq: 1 } });
  return res;
}

async function productExists(title: string): Promise<boolean> {
  const res = await api<{ total: number }>(`/api/products/search?q=${encodeURIComponent(title)}`);
  return res.body.total > 0;
}

describe("Bearer JWT mutations", () => {
  let seller: Awaited<ReturnType<typeof createSeller>>;
  let other: Awaited<ReturnType<typeof createUser>>;
  beforeAll(async () => {
    [seller, other] = await Promise.all([createSeller(), createUser()]);
  });

  it("refuses each forged token on reads, writes (nothing created), the socket's auth frame and the login routes", async () => {
    const forged = await forgedBearers(claimsOf(seller.token), seller.token, other.id);
    const titles: string[] = [];
    await Promise.all(
      Object.entries(forged).map(async ([name, token]) => {
        const me = await api("/api/auth/me", { token });
        expect(me.status, name).toBe(401);
        expect(me.body.code, name).toBe("unauthenticated");
        expect(me.headers.get("content-type"), name).toContain("application/problem+json");

        const title = `forged ${unique()}`;
        titles.push(title);
        const create = await refusedCreate({ authorization: `Bearer ${token}` }, title);
        expect(create.status, name).toBe(401);

        // The login routes resolve the caller first: a forged token there is refused too, and no
        // session cookie is handed out.
        const delegated = await api("/api/auth/delegate-login", {
          token,
          json: { email: seller.user.username, password: seller.user.password, restrictTo: "NON_ADMIN" },
        });
        expect(delegated.status, name).toBe(401);
        expect(
          delegated.headers.getSetCookie().some((c) => c.startsWith("next-auth.session-token=")),
          name,
        ).toBe(false);

        const socket = await chatSocket(null);
        socket.send({ type: "auth", token });
        const closed = await socket.closed;
        expect(closed.code, name).toBe(4401);
        expect(socket.all("ready"), name).toHaveLength(0);
      }),
    );
    const exists = await Promise.all(titles.map(productExists));
    expect(exists.every((e) => !e)).toBe(true);
    // The genuine token still works: nothing above disturbed the session.
    expect((await api("/api/auth/me", { token: seller.token })).status).toBe(200);
  });

  it("refuses a genuine token after logout and after its session was revoked, on the API and the socket", async () => {
    const user = await createUser();
    const [t1, t2] = await Promise.all([login(user.username, user.password), login(user.email, user.password)]);
    const live = await chatSocket(t1);
    expect((await api("/api/auth/logout", { token: t1, method: "POST" })).status).toBe(200);
    // The open socket of that session is closed at once.
    expect((await live.closed).code).toBe(4401);
    expect((await api("/api/auth/me", { token: t1 })).status).toBe(401);
    const again = await chatSocket(null);
    again.send({ type: "auth", token: t1 });
    expect((await again.closed).code).toBe(4401);
    // Only that session ended: the account's other token still works.
    expect((await api("/api/auth/me", { token: t2 })).status).toBe(200);
    // Revocation by password change ends the rest.
    const changed = await api("/api/user/password", { token: t2, json: { currentPassword: user.password, newPassword: `new-${user.password}` } });
    expect(changed.status).toBe(200);
    expect((await api("/api/auth/me", { token: t2 })).status).toBe(401);
  });
});

describe("NextAuth session cookie mutations", () => {
  it("treats each forged cookie as signed out: reads anonymous, writes 401 (nothing created), socket never ready, NextAuth's session empty", async () => {
    const [user, other] = await Promise.all([createSeller(), createUser()]);
    const signed = await credentialsSignIn(user.user.username, user.user.password);
    const value = signed.sessionCookie!.split("=").slice(1).join("=");
    const forged = await forgedCookies(await cookieClaims(signed.sessionCookie!), value, other.id);
    const titles: string[] = [];
    await Promise.all(
      Object.entries(forged).map(async ([name, v]) => {
        const cookie = cookieHeader(v);
        const me = await api<{ user: unknown }>("/api/auth/me", { cookie });
        expect(me.status, name).toBe(200);
        expect(me.body.user, name).toBeNull();
        const title = `forged ${unique()}`;
        titles.push(title);
        const create = await refusedCreate({ cookie }, title);
        expect(create.status, name).toBe(401);
        const session = await api("/api/auth/session", { cookie });
        expect(session.body, name).toEqual({});
        const socket = await chatSocket(null, { headers: { cookie } });
        expect((await socket.closed).code, name).toBe(4401);
        expect(socket.all("ready"), name).toHaveLength(0);
      }),
    );
    expect((await Promise.all(titles.map(productExists))).some(Boolean)).toBe(false);
    expect((await api<{ user: { id: string } }>("/api/auth/me", { cookie: signed.sessionCookie! })).body.user.id).toBe(user.user.id);
  });

  it("refuses the cookies of the credentials callback and delegate-login after logout, everywhere", async () => {
    const { aiPassword, aiSeller } = await createGuardianWithAi();
    const delegated = await api("/api/auth/delegate-login", { json: { email: aiSeller.username, password: aiPassword, restrictTo: "NON_ADMIN" } });
    expect(delegated.status).toBe(200);
    const fromDelegate = delegated.headers
      .getSetCookie()
      .find((c) => c.startsWith("next-auth.session-token="))!
      .split(";")[0]!;
    const human = await createUser();
    const fromCallback = (await credentialsSignIn(human.username, human.password)).sessionCookie!;
    for (const cookie of [fromDelegate, fromCallback]) {
      expect((await api<{ user: unknown }>("/api/auth/me", { cookie })).body.user).not.toBeNull();
      const socket = await chatSocket(null, { headers: { cookie } });
      await socket.waitFor("ready");
      expect((await api("/api/auth/logout", { cookie, method: "POST" })).status).toBe(200);
      expect((await socket.closed).code).toBe(4401);
      expect((await api<{ user: unknown }>("/api/auth/me", { cookie })).body.user).toBeNull();
      expect((await api("/api/auth/session", { cookie })).body).toEqual({});
      expect((await api("/api/keys", { cookie, json: { name: "after logout" } })).status).toBe(401);
      const after = await chatSocket(null, { headers: { cookie } });
      expect((await after.closed).code).toBe(4401);
    }
  });
});

describe("API key mutations", () => {
  it("refuses wrong, altered, revoked and disabled-account keys on the API, /mcp and the socket", async () => {
    const { guardianToken, aiPassword, aiBuyer } = await createGuardianWithAi();
    const owner = await createSeller();
    const [good, revoked] = await Promise.all([createApiKey(owner.token), createApiKey(owner.token)]);
    expect((await api(`/api/keys/${revoked.id}`, { method: "DELETE", token: owner.token })).status).toBeLessThan(300);
    const aiToken = await login(aiBuyer.username, aiPassword);
    const aiKey = await createApiKey(aiToken);
    const disabled = await api("/api/ai/accounts?aiUserId=" + aiBuyer.aiUserId, { method: "DELETE", token: guardianToken });
    expect(disabled.status).toBe(200);

    const last = good.secret.at(-1) === "A" ? "B" : "A";
    const keys: Record<string, string> = {
      "unknown key": `etk_${"x".repeat(43)}`,
      "one character changed": good.secret.slice(0, -1) + last,
      "prefix only": good.secret.slice(0, 12),
      "key with a suffix": `${good.secret}x`,
      revoked: revoked.secret,
      "key of a disabled AI account": aiKey.secret,
    };
    await Promise.all(
      Object.entries(keys).map(async ([name, secret]) => {
        for (const headers of [{ authorization: `Bearer ${secret}` }, { "x-api-key": secret }] as Record<string, string>[]) {
          const me = await api("/api/auth/me", { headers });
          expect(me.status, name).toBe(401);
          expect(me.body.code, name).toBe("unauthenticated");
          const title = `forged ${unique()}`;
          expect((await refusedCreate(headers, title)).status, name).toBe(401);
          expect(await productExists(title), name).toBe(false);
        }
        const mcp = await api("/mcp", {
          headers: { authorization: `Bearer ${secret}`, accept: "application/json, text/event-stream" },
          json: { jsonrpc: "2.0", id: 1, method: "tools/list" },
        });
        expect(mcp.status, name).toBe(401);
        // The socket takes a JWT (contract 5); a key there is refused like any other bad token.
        const socket = await chatSocket(null);
        socket.send({ type: "auth", token: secret });
        expect((await socket.closed).code, name).toBe(4401);
      }),
    );
    expect((await api("/api/auth/me", { token: good.secret })).status).toBe(200);
  });
});
