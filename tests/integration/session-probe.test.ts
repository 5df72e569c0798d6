// Contract 9.5: the site's own pages never spend a visitor's API tier. The header learns who is
// signed in (and the bell's count) from GET /session.json, outside the tier: 1,000 page views in an
// hour from one address, or by one account, see no 429, while /api calls by API clients still
// count. The probe still checks the session row, so a revoked session shows signed out. Runs on a
// server of its own with tiny tiers, on PGlite and on PostgreSQL (DATABASE_URL).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createUser, credentialsSignIn, login, useServer } from "../support/api";
import { startOwnServer, type OwnServer } from "../support/own-server";

const PAGE_VIEWS = 1_000;
/** The tiny tiers of this server (the test setup's own calls from 127.0.0.1 fit in them). */
const TIER = 12;
type Probe = { user: { username: string; role: string; isAI: boolean; sellerProfileId: string | null } | null; unread: number | null };

/** The header's request of one page view, `n` times, 50 at a time (as many tabs would). */
async function pageViews(url: string, n: number, headers: Record<string, string>) {
  const statuses = new Map<number, number>();
  const bodies: Probe[] = [];
  for (let done = 0; done < n; done += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, n - done) }, async () => {
        const res = await fetch(`${url}/session.json`, { headers });
        return { status: res.status, body: (await res.json()) as Probe, cache: res.headers.get("cache-control") };
      }),
    );
    for (const r of batch) {
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      expect(r.cache).toBe("private, no-store");
      bodies.push(r.body);
    }
  }
  return { statuses: Object.fromEntries(statuses), bodies };
}

const remaining = (h: Headers) => Number(/remaining=(\d+)/.exec(h.get("ratelimit") ?? "")?.[1]);
const reset = (h: Headers) => Number(/reset=(\d+)/.exec(h.get("ratelimit") ?? "")?.[1]);

describe("the header's session probe (contract 9.5)", () => {
  let server: OwnServer;
  beforeAll(async () => {
    server = await startOwnServer({ RATE_LIMIT_ANON_PER_HOUR: String(TIER), RATE_LIMIT_USER_PER_HOUR: String(TIER), TRUST_PROXY: "1" });
    useServer(server.url);
  }, 300_000);
  afterAll(async () => {
    useServer(undefined);
    await server?.stop();
  });

  it("answers 1,000 anonymous page views from one address without a 429, and the address's API tier is untouched", async () => {
    const ip = { "x-forwarded-for": "203.0.113.17" };
    const { statuses, bodies } = await pageViews(server.url, PAGE_VIEWS, ip);
    expect(statuses).toEqual({ 200: PAGE_VIEWS });
    expect(bodies.every((b) => b.user === null && b.unread === null)).toBe(true);
    // API clients at that address still have their whole budget, and still spend it.
    const calls = [];
    for (let i = 0; i <= TIER; i++) calls.push(await api("/api/categories", { headers: ip }));
    expect(calls.map((c) => c.status)).toEqual([...Array<number>(TIER).fill(200), 429]);
    expect(remaining(calls[0]!.headers)).toBe(TIER - 1);
    expect(Number(calls[TIER]!.headers.get("retry-after"))).toBeGreaterThan(0);
    // Browsing goes on after the API tier is spent.
    expect((await pageViews(server.url, 20, ip)).statuses).toEqual({ 200: 20 });
  });

  it("shows a signed-in seller and the unread count on 1,000 page views without spending the account's tier; a revoked session shows signed out", async () => {
    const seller = await createUser("SELLER", { companyName: "Probe Works" });
    const buyer = await createUser("BUYER");
    const signed = await credentialsSignIn(seller.username, seller.password);
    expect(signed.sessionCookie).not.toBeNull();
    const cookie = { cookie: signed.sessionCookie!, "x-forwarded-for": "203.0.113.40" };

    // A message to the seller is one unread notification, which the probe carries for the bell.
    const buyerToken = await login(buyer.username, buyer.password);
    expect((await api("/api/chat/messages", { token: buyerToken, json: { to: seller.id, content: "Is the A60 bulb in stock?" } })).status).toBe(201);

    const before = await api<{ unread: number }>("/api/notifications/unread-count", { headers: cookie });
    expect(before.status).toBe(200);
    const { statuses, bodies } = await pageViews(server.url, PAGE_VIEWS, cookie);
    expect(statuses).toEqual({ 200: PAGE_VIEWS });
    for (const b of bodies.slice(0, 3)) {
      expect(b.user).toMatchObject({ username: seller.username, role: "SELLER", isAI: false });
      expect(b.user!.sellerProfileId).toEqual(expect.any(String));
      expect(b.unread).toBe(before.body.unread);
    }
    expect(before.body.unread).toBe(1);
    // The account's API tier moved by exactly the one API call made after the page views. Tiers count
    // per clock hour (fixed windows): when one ended between the two calls (more seconds left after
    // than before), the second call is the new window's first.
    const after = await api("/api/notifications/unread-count", { headers: cookie });
    const newWindow = reset(after.headers) > reset(before.headers);
    expect(remaining(after.headers)).toBe(newWindow ? TIER - 1 : remaining(before.headers) - 1);

    // Signing out revokes the session row: the same cookie now reads as signed out.
    expect((await api("/api/auth/logout", { method: "POST", headers: cookie })).status).toBe(200);
    expect((await pageViews(server.url, 1, cookie)).bodies[0]).toEqual({ user: null, unread: null });
  });

  it("leaves Next's own page fetches (prefetches and navigations, `_rsc`) to the pages: never the JSON twin, never counted", async () => {
    const ip = { "x-forwarded-for": "203.0.113.77" };
    for (const path of ["/exhibitions", "/products", "/shoutouts"]) {
      const res = await fetch(`${server.url}${path}?_rsc=abc12`, { headers: { ...ip, rsc: "1", "next-router-prefetch": "1", accept: "*/*" } });
      await res.arrayBuffer();
      expect(res.headers.get("ratelimit"), path).toBeNull();
      expect(res.headers.get("content-type") ?? "", path).not.toContain("json");
    }
    const first = await api("/api/categories", { headers: ip });
    expect(remaining(first.headers)).toBe(TIER - 1);
  });

  it("is the browser's probe only: a Bearer token or an API key is not read (API clients have /api/auth/me)", async () => {
    const user = await createUser("BUYER");
    const token = await login(user.username, user.password);
    const res = await fetch(`${server.url}/session.json`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ user: null, unread: null });
    const post = await fetch(`${server.url}/session.json`, { method: "POST" });
    expect(post.status).toBe(405);
  });
});
