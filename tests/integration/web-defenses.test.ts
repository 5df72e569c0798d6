// Issue #7, point 5: what a browser-borne attacker tries against sessions and pages. Failed
// sign-ins that look alike, CSRF on cookie flows, foreign callbackUrls, the x-middleware-subrequest
// bypass, session fixation, and the security headers of pages and API answers.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, baseUrl, createGuardianWithAi, createUser, credentialsSignIn, login } from "../support/api";
import { chatSocket } from "../support/ws";

type Keys = { keys: { id: string; name: string }[] };
const publicOrigin = () => `http://localhost:${new URL(baseUrl()).port}`;

/** A problem body without its per-request id. */
function stable(body: unknown) {
  const { requestId: _ignored, ...rest } = body as Record<string, unknown>;
  return rest;
}

describe("failed sign-ins look the same", () => {
  it("answers unknown names, wrong passwords and AI e-mails identically on every route", { timeout: 90_000 }, async () => {
    const user = await createUser();
    const { guardian, aiPassword } = await createGuardianWithAi();
    const attempts: [string, string, string][] = [
      ["wrong password by username", user.username, "wrong-password-1"],
      ["wrong password by e-mail", user.email, "wrong-password-1"],
      ["unknown username", `nobody${Date.now()}`, "wrong-password-1"],
      ["unknown e-mail", `nobody${Date.now()}@example.test`, "wrong-password-1"],
      ["AI account by the shared e-mail", guardian.email, aiPassword],
    ];
    for (const route of ["/api/auth/login", "/api/auth/delegate-login"]) {
      const answers = await Promise.all(attempts.map(([, email, password]) => api(route, { json: { email, password, restrictTo: "NON_ADMIN" } })));
      for (const [i, res] of answers.entries()) {
        expect(res.status, `${route} ${attempts[i]![0]}`).toBe(401);
        expect(stable(res.body), `${route} ${attempts[i]![0]}`).toEqual(stable(answers[0]!.body));
        expect([...res.headers.keys()].filter((k) => k !== "date").sort()).toEqual([...answers[0]!.headers.keys()].filter((k) => k !== "date").sort());
        expect(res.headers.getSetCookie()).toEqual([]);
      }
    }
    const callbacks = await Promise.all(attempts.map(([, email, password]) => credentialsSignIn(email, password)));
    for (const [i, c] of callbacks.entries()) {
      expect(c.sessionCookie, attempts[i]![0]).toBeNull();
      expect(c.status, attempts[i]![0]).toBe(callbacks[0]!.status);
      expect(c.body, attempts[i]![0]).toEqual(callbacks[0]!.body);
    }
  });
});

describe("CSRF on cookie flows", () => {
  async function signedInCookie() {
    const user = await createUser();
    return { user, cookie: (await credentialsSignIn(user.username, user.password)).sessionCookie! };
  }

  it("refuses state-changing cookie requests a browser marks as cross-site, and changes nothing", async () => {
    const { cookie } = await signedInCookie();
    const crossSite: Record<string, string>[] = [
      { origin: "http://evil.example" },
      { origin: "null" },
      { origin: `${publicOrigin()}.evil.example` },
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
      { origin: publicOrigin(), "sec-fetch-site": "cross-site" },
    ];
    for (const headers of crossSite) {
      const res = await api("/api/keys", { cookie, headers, json: { name: "csrf" } });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body.code).toBe("cross_site_request");
      // A form post needs no preflight: text/plain carrying JSON.
      const form = await api("/api/keys", {
        cookie,
        headers: { ...headers, "content-type": "text/plain" },
        body: JSON.stringify({ name: "csrf" }),
        method: "POST",
      });
      expect(form.status).toBe(403);
    }
    expect((await api<Keys>("/api/keys", { cookie })).body.keys).toEqual([]);

    // Same origin (by Host or by the public URL), and clients that are not browsers, pass.
    for (const headers of [{ origin: baseUrl() }, { origin: publicOrigin() }, { "sec-fetch-site": "same-origin" }, {}] as Record<string, string>[]) {
      const res = await api<{ key: { id: string } }>("/api/keys", { cookie, headers, json: { name: "ok" } });
      expect(res.status, JSON.stringify(headers)).toBe(201);
    }
    const keys = (await api<Keys>("/api/keys", { cookie })).body.keys;
    expect(keys).toHaveLength(4);
    const del = await api(`/api/keys/${keys[0]!.id}`, { cookie, method: "DELETE", headers: { origin: "http://evil.example" } });
    expect(del.status).toBe(403);
    expect((await api<Keys>("/api/keys", { cookie })).body.keys).toHaveLength(4);
  });

  it("lets Bearer and API-key calls through from any origin (a browser never sends them by itself)", async () => {
    const user = await createUser();
    const token = await login(user.username, user.password);
    const res = await api<{ secret: string }>("/api/keys", {
      token,
      headers: { origin: "http://evil.example", "sec-fetch-site": "cross-site" },
      json: { name: "tool" },
    });
    expect(res.status).toBe(201);
    const viaKey = await api("/api/buyer/requirements", {
      headers: { "x-api-key": res.body.secret, origin: "http://evil.example", "sec-fetch-site": "cross-site" },
      json: { title: "LED bulbs", description: "10,000 E27 bulbs" },
    });
    expect(viaKey.status).toBe(201);
  });

  it("refuses cross-site sign-in and registration (login CSRF) without setting a cookie", async () => {
    const user = await createUser();
    const delegated = await api("/api/auth/delegate-login", {
      headers: { origin: "http://evil.example" },
      json: { email: user.username, password: user.password, restrictTo: "NON_ADMIN" },
    });
    expect(delegated.status).toBe(403);
    expect(delegated.headers.getSetCookie()).toEqual([]);
    const created = await api("/api/accounts/create", {
      headers: { "sec-fetch-site": "cross-site" },
      json: { email: `x${Date.now()}@example.test`, username: `x${Date.now()}`, password: "long-enough-1", role: "BUYER" },
    });
    expect(created.status).toBe(403);
  });

  it("needs NextAuth's CSRF token on the credentials callback and on sign-out", async () => {
    const user = await createUser();
    const post = (path: string, form: Record<string, string>, cookie = "") =>
      fetch(`${baseUrl()}${path}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://evil.example", ...(cookie ? { cookie } : {}) },
        body: new URLSearchParams(form).toString(),
        redirect: "manual",
      });
    // A cross-site form has no token, or a token of the attacker's own browser (not matching the cookie).
    const theirs = (await (await fetch(`${baseUrl()}/api/auth/csrf`)).json()) as { csrfToken: string };
    for (const form of [{}, { csrfToken: theirs.csrfToken }] as Record<string, string>[]) {
      const res = await post("/api/auth/callback/credentials", { ...form, email: user.username, password: user.password, json: "true" });
      expect(res.headers.getSetCookie().some((c) => c.startsWith("next-auth.session-token="))).toBe(false);
    }
    const { sessionCookie } = await credentialsSignIn(user.username, user.password);
    const signOut = await post("/api/auth/signout", { csrfToken: theirs.csrfToken, json: "true" }, sessionCookie!);
    expect(signOut.headers.getSetCookie().some((c) => /^next-auth\.session-token=;|Max-Age=0/.test(c))).toBe(false);
    expect((await api<{ user: { id: string } }>("/api/auth/me", { cookie: sessionCookie! })).body.user.id).toBe(user.id);
  });

  it("does not take the cookie as authentication on a cross-site chat socket", async () => {
    const { user, cookie } = await signedInCookie();
    // A foreign Origin is refused at the handshake (403), before the cookie is even read.
    await expect(chatSocket(null, { headers: { cookie, origin: "http://evil.example" } })).rejects.toThrow(/403/);
    const own = await chatSocket(null, { headers: { cookie, origin: publicOrigin() } });
    expect((await own.waitFor("ready")).userId).toBe(user.id);
    own.close();
  });
});

describe("redirects and the proxy", () => {
  async function callbackTo(user: { username: string; password: string }, callbackUrl: string) {
    const { headers, body } = await credentialsSignIn(user.username, user.password, "", callbackUrl);
    return { res: { headers }, body: body as { url: string } };
  }

  it("never sends a signed-in user to a foreign callbackUrl", { timeout: 60_000 }, async () => {
    const user = await createUser();
    const foreign = [
      "https://evil.example/steal",
      "//evil.example/x",
      "/\\evil.example",
      "http://localhost.evil.example",
      `${publicOrigin()}@evil.example`,
      "javascript:alert(1)",
    ];
    const answers = await Promise.all(foreign.map((callbackUrl) => callbackTo(user, callbackUrl)));
    for (const [i, { res, body }] of answers.entries()) {
      const callbackUrl = foreign[i]!;
      expect(
        res.headers.getSetCookie().some((c) => c.startsWith("next-auth.session-token=")),
        callbackUrl,
      ).toBe(true);
      const target = new URL(body.url, publicOrigin());
      expect(target.origin, `${callbackUrl} -> ${body.url}`).toBe(publicOrigin());
      // The callback-url cookie NextAuth keeps is sanitized the same way.
      const kept = res.headers.getSetCookie().find((c) => c.startsWith("next-auth.callback-url="));
      if (kept) expect(new URL(decodeURIComponent(kept.split(";")[0]!.split("=")[1]!), publicOrigin()).origin).toBe(publicOrigin());
    }
    const local = await callbackTo(user, "/seller/products?x=1");
    expect(local.body.url).toBe(`${publicOrigin()}/seller/products?x=1`);
  });

  it("still runs proxy.ts when a request carries x-middleware-subrequest", async () => {
    for (const marker of [
      "proxy:proxy:proxy:proxy:proxy",
      "middleware:middleware:middleware:middleware:middleware",
      "src/proxy:src/proxy:src/proxy:src/proxy:src/proxy",
      "proxy",
    ]) {
      const res = await fetch(`${baseUrl()}/`, { headers: { "x-middleware-subrequest": marker, "accept-language": "de" }, redirect: "manual" });
      // next-intl's locale detection (a redirect to /de) and the device cookie and CSP are the proxy's.
      expect(res.status, marker).toBe(307);
      expect(res.headers.get("location"), marker).toMatch(/\/de$/);
      expect(
        res.headers.getSetCookie().some((c) => c.startsWith("et_device=")),
        marker,
      ).toBe(true);
      expect(res.headers.get("content-security-policy"), marker).toMatch(/'nonce-[A-Za-z0-9+/=]+'/);
      const page = await fetch(`${baseUrl()}/en/register`, { headers: { "x-middleware-subrequest": marker }, redirect: "manual" });
      expect(page.status, marker).toBe(307);
      expect(page.headers.get("location"), marker).toMatch(/\/register$/);
    }
  });
});

describe("session fixation", () => {
  it("issues a fresh session on every sign-in, whatever session cookie or token the browser already held", { timeout: 60_000 }, async () => {
    const [victim, attacker] = await Promise.all([createUser(), createUser()]);
    const planted = (await credentialsSignIn(attacker.username, attacker.password)).sessionCookie!;
    const sid = async (cookie: string) => (await api<{ user: { id: string; sessionId?: string } | null }>("/api/auth/me", { cookie })).body.user;

    for (const before of [planted, "next-auth.session-token=attacker-chosen-value"]) {
      const signed = await credentialsSignIn(victim.username, victim.password, before);
      expect(signed.sessionCookie).not.toBeNull();
      expect(signed.sessionCookie).not.toBe(before);
      expect((await sid(signed.sessionCookie!))!.id).toBe(victim.id);

      const delegated = await api("/api/auth/delegate-login", {
        cookie: before,
        json: { email: victim.username, password: victim.password, restrictTo: "NON_ADMIN" },
      });
      expect(delegated.status).toBe(200);
      const issued = delegated.headers
        .getSetCookie()
        .find((c) => c.startsWith("next-auth.session-token="))!
        .split(";")[0]!;
      expect(issued).not.toBe(before);
      expect((await sid(issued))!.id).toBe(victim.id);
    }
    // The planted cookie is still the attacker's own session and never became the victim's.
    expect((await sid(planted))!.id).toBe(attacker.id);

    // Each sign-in is a new server-side session: ending one leaves the others.
    const a = await login(victim.username, victim.password);
    const b = await login(victim.username, victim.password);
    const claims = (t: string) => JSON.parse(Buffer.from(t.split(".")[1]!, "base64url").toString()) as { sid: string };
    expect(claims(a).sid).not.toBe(claims(b).sid);
    await api("/api/auth/logout", { token: a, method: "POST" });
    expect((await api("/api/auth/me", { token: b })).status).toBe(200);
  });
});

describe("security headers", () => {
  const BASE = {
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "strict-origin-when-cross-origin",
  };

  it("gives pages a CSP without 'unsafe-inline' scripts: a fresh nonce on every script of rendered pages, hashes of the inline scripts of prerendered ones", async () => {
    const nonces = new Set<string>();
    let prerendered = 0;
    const paths = [
      "/",
      "/register",
      "/sign-in?callbackUrl=/chat",
      "/search?q=x",
      "/zh/exhibitions",
      "/legal/ai-privacy-policy",
      "/ar/api-docs",
      "/no-such-page",
    ];
    for (const path of paths) {
      const res = await fetch(`${baseUrl()}${path}`);
      expect(res.status, path).toBe(path === "/no-such-page" ? 404 : 200);
      for (const [k, v] of Object.entries(BASE)) expect(res.headers.get(k), `${path} ${k}`).toBe(v);
      expect(res.headers.get("strict-transport-security")).toBeNull();
      const csp = res.headers.get("content-security-policy") ?? "";
      const directives = Object.fromEntries(
        csp
          .split(";")
          .map((d) => d.trim().split(/\s+/))
          .map(([n, ...v]) => [n, v]),
      );
      expect(directives["frame-ancestors"], path).toEqual(["'none'"]);
      expect(directives["object-src"], path).toEqual(["'none'"]);
      expect(directives["base-uri"], path).toEqual(["'self'"]);
      const scriptSrc = directives["script-src"] as string[];
      expect(scriptSrc, path).not.toContain("'unsafe-inline'");
      expect(scriptSrc, path).not.toContain("'unsafe-eval'");
      const html = await res.text();
      const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter((m) => !/type="application\/(ld\+)?json"/.test(m[1]!));
      expect(scripts.length, path).toBeGreaterThan(0);
      const nonce = scriptSrc.find((s) => s.startsWith("'nonce-"))?.slice(7, -1);
      if (nonce) {
        nonces.add(nonce);
        expect(scriptSrc, path).toContain("'strict-dynamic'");
        for (const [, attrs] of scripts) expect(attrs, path).toContain(`nonce="${nonce}"`);
      } else {
        // Prerendered at build time (x-nextjs-prerender): no request, so no nonce; every inline
        // script is allowed by its hash and nothing else inline is.
        prerendered++;
        expect(res.headers.get("x-nextjs-prerender"), `${path}: neither nonce nor prerendered: ${csp}`).toMatch(/^1\b/);
        for (const [, attrs, body] of scripts) {
          if (/\bsrc=/.test(attrs!)) continue;
          expect(scriptSrc, path).toContain(`'sha256-${createHash("sha256").update(body!, "utf8").digest("base64")}'`);
        }
      }
    }
    expect(nonces.size + prerendered).toBe(paths.length);
    expect(nonces.size).toBeGreaterThanOrEqual(4);
  });

  it("gives API answers, on both dispatch paths, the base headers and a CSP that renders nothing", async () => {
    for (const path of ["/api/health", "/api/products/search?q=x", "/api/auth/csrf", "/api/no-such-thing", "/api/auth/me", "/mcp", "/api/openapi"]) {
      const res = await fetch(`${baseUrl()}${path}`);
      for (const [k, v] of Object.entries(BASE)) expect(res.headers.get(k), `${path} ${k}`).toBe(v);
      expect(res.headers.get("content-security-policy"), path).toMatch(/^default-src 'none'; frame-ancestors 'none'/);
      await res.arrayBuffer();
    }
  });
});
