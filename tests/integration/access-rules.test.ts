// Contract 9.1, "bad input costs no more than good input", the access rules: invalid credentials
// count against the anonymous tier of their address, the device cookie is the server's own (signed),
// unpublished booths reveal neither their id nor their products, and open purchase requirements are
// listed to stores only. (The sign-in brake: brute-force.test.ts.)
import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminToken, api, baseUrl, catalogWindowAfter, createGuardianWithAi, createProduct, createSeller, createUser, login, unique } from "../support/api";
import { startServer, type RunningServer } from "../support/server";

describe("requests with invalid credentials", () => {
  const LIMIT = 5;
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(
      { RATE_LIMIT_ANON_PER_HOUR: String(LIMIT), TRUST_PROXY: "1", DATABASE_URL: process.env.DATABASE_URL ?? "" },
      { timeoutMs: 180_000 },
    );
  }, 200_000);
  afterAll(async () => {
    await server?.stop();
  });

  // Addresses of this run only (X-Forwarded-For, TRUST_PROXY=1), so no earlier run's count is met.
  const address = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
  const call = async (ip: string, path: string, headers: Record<string, string> = {}, method = "GET") => {
    const res = await fetch(`${server.url}${path}`, { method, headers: { "x-forwarded-for": ip, ...headers } });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
  };

  it("counts each against the anonymous tier of its address: guesses run into 429, another address is untouched", async () => {
    // A real session's token, then revoked: still a credential that no longer holds.
    const home = address();
    const username = unique("ic_");
    const register = await fetch(`${server.url}/api/accounts/create`, {
      method: "POST",
      headers: { "x-forwarded-for": home, "content-type": "application/json" },
      body: JSON.stringify({ email: `${username}@example.test`, username, password: "password-123", role: "BUYER" }),
    });
    expect(register.status).toBe(201);
    const signIn = () =>
      fetch(`${server.url}/api/auth/login`, {
        method: "POST",
        headers: { "x-forwarded-for": home, "content-type": "application/json" },
        body: JSON.stringify({ email: username, password: "password-123" }),
      }).then(async (r) => ((await r.json()) as { token: string }).token);
    const revoked = await signIn();
    expect((await call(home, "/api/auth/logout", { authorization: `Bearer ${revoked}` }, "POST")).status).toBe(200);
    const valid = await signIn();

    const guesser = address();
    const guesses: Record<string, string>[] = [
      { authorization: "Bearer not-a-token" },
      { authorization: `Bearer etk_${"A".repeat(43)}` },
      { "x-api-key": `etk_${"B".repeat(43)}` },
      { authorization: "Basic dXNlcjpwYXNz" },
      { authorization: `Bearer ${revoked}` },
    ];
    for (const [i, headers] of guesses.entries()) {
      const res = await call(guesser, "/api/categories", headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.body.code).toBe("unauthenticated");
      expect(res.headers.get("ratelimit")).toMatch(new RegExp(`^limit=${LIMIT}, remaining=${LIMIT - 1 - i}, reset=\\d+$`));
    }
    // The tier is used up: the next guess, on /api and on /mcp, and plain anonymous calls wait.
    const limited = await call(guesser, "/api/auth/me", { authorization: "Bearer another-guess" });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe("rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await call(guesser, "/mcp", { "x-api-key": "etk_guess", "content-type": "application/json" }, "POST")).status).toBe(429);
    expect((await call(guesser, "/api/categories")).status).toBe(429);
    // A valid credential from the same address counts against its account, not the address.
    expect((await call(guesser, "/api/auth/me", { authorization: `Bearer ${valid}` })).status).toBe(200);
    // Another address is fine: its first guess is a 401, its anonymous calls pass.
    const other = address();
    const first = await call(other, "/api/categories", { authorization: "Bearer not-a-token" });
    expect(first.status).toBe(401);
    expect(first.headers.get("ratelimit")).toMatch(new RegExp(`^limit=${LIMIT}, remaining=${LIMIT - 1}, reset=\\d+$`));
    expect((await call(other, "/api/categories")).status).toBe(200);
  });
});

describe("the device cookie", () => {
  const deviceOf = (res: { headers: Headers }) =>
    res.headers
      .getSetCookie()
      .find((c) => c.startsWith("et_device="))
      ?.split(";")[0]
      ?.slice("et_device=".length);
  const page = (cookie?: string) => fetch(`${baseUrl()}/`, { redirect: "manual", headers: cookie ? { cookie } : {} });

  it("is issued signed by the server; a forged or unsigned value is ignored and replaced", async () => {
    const issued = deviceOf(await page());
    expect(issued).toMatch(/^[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/);
    // A browser holding it keeps it.
    expect(deviceOf(await page(`et_device=${issued}`))).toBeUndefined();
    const id = issued!.split(".")[0]!;
    for (const forged of ["attacker-chosen", id, `${id}.${"A".repeat(43)}`, `${randomInt(1e9)}.${issued!.split(".")[1]}`]) {
      const replaced = deviceOf(await page(`et_device=${forged}`));
      expect(replaced, forged).toMatch(/^[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/);
      expect(replaced!.split(".")[0]).not.toBe(id);
    }
  });

  it("acts only when verified: a copied id does not sign the sibling AI account out of its browser", async () => {
    const { aiBuyer, aiSeller, aiPassword } = await createGuardianWithAi();
    const device = deviceOf(await page())!;
    const delegate = (username: string, cookie: string) =>
      api("/api/auth/delegate-login", { json: { email: username, password: aiPassword, restrictTo: "NON_ADMIN" }, cookie });
    const session = (res: Awaited<ReturnType<typeof delegate>>) =>
      res.headers
        .getSetCookie()
        .find((c) => c.startsWith("next-auth.session-token="))!
        .split(";")[0]!;
    const me = (cookie: string) => api<{ user: { id: string } | null }>("/api/auth/me", { cookie });

    const buyer = await delegate(aiBuyer.username, `et_device=${device}`);
    expect(buyer.status).toBe(200);
    // The verified cookie is kept: no new device cookie.
    expect(deviceOf(buyer)).toBeUndefined();
    // The sibling signs in with the device id written unsigned: not that device, and a new cookie.
    const forged = await delegate(aiSeller.username, `et_device=${device.split(".")[0]}`);
    expect(forged.status).toBe(200);
    const fresh = deviceOf(forged);
    expect(fresh).toMatch(/^[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/);
    expect(fresh!.split(".")[0]).not.toBe(device.split(".")[0]);
    expect((await me(session(buyer))).body.user?.id).toBe(aiBuyer.aiUserId);
    // The same browser for real (the signed cookie): the one-browser rule replaces the sibling.
    const seller = await delegate(aiSeller.username, `et_device=${device}`);
    expect(seller.status).toBe(200);
    expect((await me(session(buyer))).body.user).toBeNull();
    expect((await me(session(seller))).body.user?.id).toBe(aiSeller.aiUserId);
  });
});

describe("unpublished booths", () => {
  it("reveal neither their id nor their products to others, while their store sees both", async () => {
    const { guardianToken: owner, aiSeller, aiPassword } = await createGuardianWithAi();
    const aiToken = await login(aiSeller.username, aiPassword);
    const storeId = (await api<{ user: { sellerProfileId: string } }>("/api/auth/me", { token: owner })).body.user.sellerProfileId;
    const booth = (await api<{ booth: { id: string } }>("/api/booths", { token: owner, json: { name: `Draft ${unique()}` } })).body.booth.id;
    const word = unique("draftword");
    const product = await createProduct(owner, { title: `Lamp ${word}`, boothId: booth });
    expect(product.boothId).toBe(booth);

    const buyer = await createUser("BUYER");
    const buyerToken = await login(buyer.username, buyer.password);
    const rival = (await createSeller()).token;
    const admin = await adminToken();
    const others: [string, string | undefined][] = [
      ["anonymous", undefined],
      ["buyer", buyerToken],
      ["another store", rival],
    ];

    // The booth itself: 404 exactly as a booth that does not exist; its store and admins see it.
    const missing = await api("/api/booths/no-such-booth");
    for (const [who, token] of others) {
      const res = await api<{ detail: string }>(`/api/booths/${booth}`, { token });
      expect(res.status, who).toBe(404);
      expect(res.body.detail).toBe((missing.body as { detail: string }).detail);
    }
    for (const token of [owner, aiToken, admin]) expect((await api(`/api/booths/${booth}`, { token })).status).toBe(200);
    // The booth page too.
    expect((await fetch(`${baseUrl()}/booths/${booth}`, { headers: { accept: "text/html" } })).status).toBe(404);

    // Its product is public (contract 4) but does not name the booth: detail, search, list.
    for (const [who, token] of others) {
      const detail = await api<{ product: { boothId: string | null; booth: unknown } }>(`/api/products/${product.id}`, { token });
      expect(detail.status, who).toBe(200);
      expect(detail.body.product.boothId).toBeNull();
      expect(detail.body.product.booth).toBeNull();
      expect(detail.text).not.toContain(booth);
      const found = await api<{ products: { id: string; boothId: string | null }[] }>(`/api/products/search?q=${word}`, { token });
      expect(found.body.products.map((p) => p.id)).toEqual([product.id]);
      expect(found.text).not.toContain(booth);
      // A booth filter finds nothing, as for a booth that does not exist.
      for (const path of [`/api/products/search?boothId=${booth}`, `/api/products?boothId=${booth}`, `/api/products/search?boothId=${booth}&q=${word}`]) {
        const res = await api<{ products: unknown[]; total: number }>(path, { token });
        expect(res.status, path).toBe(200);
        expect(res.body.products, `${who} ${path}`).toEqual([]);
        expect(res.body.total).toBe(0);
      }
    }
    // The store sees its own booth's id and lists its products by booth.
    const mine = await api<{ product: { boothId: string } }>(`/api/products/${product.id}`, { token: owner });
    expect(mine.body.product.boothId).toBe(booth);
    const own = await api<{ products: { id: string; boothId: string }[] }>(`/api/products?sellerId=${storeId}&boothId=${booth}`, { token: owner });
    expect(own.body.products.map((p) => [p.id, p.boothId])).toEqual([[product.id, booth]]);

    // Published, everyone sees it (lists within the catalog window); unpublished again, it is gone.
    const publish = async (isPublished: boolean) => {
      const res = await api("/api/booths", { method: "PUT", token: owner, json: { boothId: booth, isPublished } });
      expect(res.status).toBe(200);
      await catalogWindowAfter(Date.now());
    };
    await publish(true);
    expect((await api(`/api/booths/${booth}`)).status).toBe(200);
    expect((await api<{ product: { boothId: string } }>(`/api/products/${product.id}`)).body.product.boothId).toBe(booth);
    const listed = await api<{ products: { id: string; boothId: string }[] }>(`/api/products/search?boothId=${booth}`);
    expect(listed.body.products.map((p) => [p.id, p.boothId])).toEqual([[product.id, booth]]);
    expect((await api<{ products: { boothId: string }[] }>(`/api/products/search?q=${word}`)).body.products[0]?.boothId).toBe(booth);
    await publish(false);
    expect((await api(`/api/booths/${booth}`)).status).toBe(404);
    expect((await api<{ products: unknown[] }>(`/api/products/search?boothId=${booth}`)).body.products).toEqual([]);
    const again = await api(`/api/products/search?q=${word}`);
    expect(again.text).toContain(product.id);
    expect(again.text).not.toContain(booth);
  });
});

describe("GET /api/requirements", () => {
  it("lists open requirements to stores and their AI_SELLER only; others 403 seller_profile_required", async () => {
    const buyer = await createUser("BUYER");
    const buyerToken = await login(buyer.username, buyer.password);
    const title = `Need ${unique("bolts")}`;
    const posted = await api<{ requirement: { id: string } }>("/api/buyer/requirements", { token: buyerToken, json: { title } });
    expect(posted.status).toBe(201);
    const { guardianToken, aiSeller, aiBuyer, aiPassword } = await createGuardianWithAi();
    const store = (await createSeller()).token;

    for (const token of [store, guardianToken, await login(aiSeller.username, aiPassword)]) {
      const res = await api<{ requirements: { id: string }[] }>(`/api/requirements?q=${encodeURIComponent(title)}`, { token });
      expect(res.status).toBe(200);
      expect(res.body.requirements.map((r) => r.id)).toEqual([posted.body.requirement.id]);
    }
    for (const token of [buyerToken, await login(aiBuyer.username, aiPassword), await adminToken()]) {
      const res = await api<{ code: string }>("/api/requirements", { token });
      expect(res.status).toBe(403);
      expect(res.body.code).toMatch(/^(seller_profile_required|permission_denied)$/);
    }
    const refused = await api<{ code: string; detail: string }>("/api/requirements", { token: buyerToken });
    expect(refused.body.code).toBe("seller_profile_required");
    expect(refused.text).not.toContain(title);
    // Anonymous callers bring no credentials at all: 401, like every signed-in route (contract 1).
    expect((await api("/api/requirements")).status).toBe(401);
    // A buyer reads its own.
    const mine = await api<{ requirements: { id: string }[] }>("/api/buyer/requirements", { token: buyerToken });
    expect(mine.status).toBe(200);
    expect(mine.body.requirements.map((r) => r.id)).toContain(posted.body.requirement.id);
  });
});
